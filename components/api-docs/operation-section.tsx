// One route of the API reference: method and path, the key scope it needs, what it does, its parameters, the body
// it takes, what it answers, and a curl line to paste.
import type { ParameterObject, ResponseObject } from "openapi3-ts/oas31";
import { FieldTable } from "./field-table";
import { curlOf, fieldsOf, typeOf, type Doc, type Op, type Schema } from "./openapi-view";
import { Prose } from "./prose";

const METHOD_LOOK: Record<string, string> = {
  get: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
  post: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
};

function SchemaLink({ schema }: { schema: Schema | undefined }) {
  const type = typeOf(schema);
  return type.ref ? (
    <a className="font-mono text-xs text-accent dark:text-indigo-400 hover:underline" href={`#schema-${type.ref}`}>
      {type.words}
    </a>
  ) : (
    <span className="text-xs text-zinc-600 dark:text-zinc-400">{type.words}</span>
  );
}

export function OperationSection({ doc, operation, server }: { doc: Doc; operation: Op; server: string }) {
  const { op, method, path, scopes } = operation;
  const parameters = (op.parameters ?? []).filter((p): p is ParameterObject => !("$ref" in p));
  const body = op.requestBody && !("$ref" in op.requestBody) ? op.requestBody.content["application/json"]?.schema : undefined;
  const responses = Object.entries(op.responses ?? {}) as [string, ResponseObject][];
  const [description, ...rest] = (op.description ?? "").split("\n\n").filter((p) => !p.startsWith("Key scope:"));
  return (
    <section id={operation.id} aria-labelledby={`${operation.id}-title`} className="scroll-mt-4 border-b border-zinc-200 py-8 dark:border-zinc-800">
      <h3 id={`${operation.id}-title`} className="text-base font-semibold">
        {op.summary}
      </h3>
      <p className="mt-2 flex flex-wrap items-center gap-2">
        <span className={`rounded px-1.5 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_LOOK[method] ?? "bg-zinc-100"}`}>{method}</span>
        <code className="font-mono text-sm">{path}</code>
        {scopes.length > 0 ? (
          <span className="rounded-full border border-zinc-300 px-2 py-0.5 text-xs text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            key scope: {scopes.join(" or ")}
          </span>
        ) : (
          <span className="rounded-full border border-zinc-300 px-2 py-0.5 text-xs text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">no key needed</span>
        )}
      </p>
      <Prose text={[description, ...rest].join("\n\n")} className="mt-3 max-w-3xl text-sm text-zinc-700 dark:text-zinc-300" />

      {parameters.length > 0 ? (
        <div className="mt-5">
          <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Parameters</h4>
          <FieldTable
            label={`Parameters of ${op.summary}`}
            fields={parameters.map((p) => ({
              name: `${p.name} (${p.in})`,
              type: typeOf(p.schema as Schema | undefined),
              required: p.required === true,
              description: p.description ?? "",
            }))}
          />
        </div>
      ) : null}

      {body ? (
        <div className="mt-5">
          <h4 className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 dark:text-zinc-400">
            <span className="uppercase">Body</span> (JSON, <SchemaLink schema={body} />)
          </h4>
          <FieldTable label={`Body of ${op.summary}`} fields={fieldsOf(doc, body)} />
        </div>
      ) : null}

      <div className="mt-5">
        <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Answers</h4>
        <ul className="space-y-1 text-sm" aria-label={`Answers of ${op.summary}`}>
          {responses.map(([status, response]) => {
            const content = response.content ?? {};
            const [type, media] = Object.entries(content)[0] ?? [];
            return (
              <li key={status} className="flex gap-3">
                <span className={`w-10 shrink-0 font-mono text-xs leading-5 ${status.startsWith("2") ? "text-emerald-700 dark:text-emerald-400" : "text-zinc-500 dark:text-zinc-400"}`}>{status}</span>
                <span className="text-zinc-700 dark:text-zinc-300">
                  {response.description}
                  {media?.schema ? (
                    <>
                      {" "}
                      <span className="text-zinc-500 dark:text-zinc-400">·</span> {type === "text/event-stream" ? <span className="text-xs text-zinc-500 dark:text-zinc-400">server-sent events of </span> : null}
                      {type === "text/event-stream" ? <a className="font-mono text-xs text-accent dark:text-indigo-400 hover:underline" href="#schema-RunEvent">RunEvent</a> : <SchemaLink schema={media.schema as Schema} />}
                    </>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
      </div>

      <div className="mt-5">
        <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Example</h4>
        <pre tabIndex={0} aria-label={`curl for ${op.summary}`} className="overflow-x-auto rounded-md bg-zinc-950 p-3 font-mono text-xs leading-relaxed text-zinc-100 dark:border dark:border-zinc-800 dark:bg-zinc-900">
          {curlOf(server, operation)}
        </pre>
      </div>
    </section>
  );
}
