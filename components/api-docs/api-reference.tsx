// The API reference drawn from the OpenAPI document: how to authenticate and what a refusal looks like, a contents
// column by group, each route (operation-section.tsx), then every named schema with its fields. Server-rendered from
// the same document /api/v1/openapi.json answers.
import { FieldTable } from "./field-table";
import { OperationSection } from "./operation-section";
import { fieldsOf, operationsOf, resolve, typeOf, type Doc } from "./openapi-view";
import { Prose } from "./prose";

export function ApiReference({ doc }: { doc: Doc }) {
  const server = doc.servers?.[0]?.url ?? "";
  const operations = operationsOf(doc);
  const groups = (doc.tags ?? []).map((tag) => ({ tag, operations: operations.filter((o) => o.tag === tag.name) })).filter((g) => g.operations.length > 0);
  const schemas = Object.keys(doc.components?.schemas ?? {}).sort();
  return (
    <div className="flex gap-10 px-8 py-6">
      <nav aria-label="Contents" className="sticky top-6 hidden w-56 shrink-0 self-start text-sm lg:block">
        {groups.map(({ tag, operations: ops }) => (
          <div key={tag.name} className="mb-4">
            <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{tag.name}</p>
            <ul className="space-y-0.5">
              {ops.map((o) => (
                <li key={o.id}>
                  <a href={`#${o.id}`} className="flex gap-2 rounded px-1 py-0.5 text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800">
                    <span className="w-9 shrink-0 font-mono text-[11px] uppercase leading-5 text-zinc-500 dark:text-zinc-400">{o.method}</span>
                    <span>{o.op.summary}</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Schemas</p>
        <a href="#schemas" className="rounded px-1 py-0.5 text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800">
          {schemas.length} shapes
        </a>
      </nav>

      <div className="min-w-0 max-w-4xl flex-1">
        <section aria-labelledby="using-title" className="rounded-lg border border-zinc-200 p-5 text-sm dark:border-zinc-800">
          <h2 id="using-title" className="text-base font-semibold">
            Using the API
          </h2>
          <Prose text={doc.info.description ?? ""} className="mt-2 text-zinc-700 dark:text-zinc-300" />
          <p className="mt-3 text-zinc-700 dark:text-zinc-300">
            Send the key as <code className="rounded bg-zinc-100 px-1 font-mono text-xs dark:bg-zinc-800">Authorization: Bearer $QUIVER_KEY</code>{" "}
            (an admin makes keys in Settings → API keys), and no cookie. Every refusal is one JSON shape,{" "}
            <a href="#schema-Error" className="font-mono text-xs text-accent underline underline-offset-2 dark:text-indigo-400">
              Error
            </a>
            : <code className="rounded bg-zinc-100 px-1 font-mono text-xs dark:bg-zinc-800">{'{ "error": { "code", "message" } }'}</code>, the message one sentence saying what to
            do. The machine-readable document is{" "}
            <a href="/api/v1/openapi.json" className="text-accent underline underline-offset-2 dark:text-indigo-400">
              /api/v1/openapi.json
            </a>
            .
          </p>
        </section>

        {groups.map(({ tag, operations: ops }) => (
          <section key={tag.name} aria-labelledby={`group-${tag.name}`} className="mt-8">
            <h2 id={`group-${tag.name}`} className="text-lg font-semibold tracking-tight">
              {tag.name}
            </h2>
            {tag.description ? <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{tag.description}</p> : null}
            {ops.map((operation) => (
              <OperationSection key={operation.id} doc={doc} operation={operation} server={server} />
            ))}
          </section>
        ))}

        <section id="schemas" aria-labelledby="schemas-title" className="mt-8">
          <h2 id="schemas-title" className="text-lg font-semibold tracking-tight">
            Schemas
          </h2>
          {schemas.map((name) => {
            const schema = resolve(doc, doc.components!.schemas![name]);
            const fields = fieldsOf(doc, schema);
            return (
              <div key={name} id={`schema-${name}`} className="scroll-mt-4 border-b border-zinc-200 py-5 dark:border-zinc-800">
                <h3 className="font-mono text-sm font-semibold">{name}</h3>
                {schema?.description ? <Prose text={schema.description} className="mt-1 text-sm text-zinc-600 dark:text-zinc-400" /> : null}
                {fields.length > 0 ? (
                  <div className="mt-2">
                    <FieldTable label={`Fields of ${name}`} fields={fields} />
                  </div>
                ) : (
                  <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{typeOf(schema).words}</p>
                )}
              </div>
            );
          })}
        </section>
      </div>
    </div>
  );
}
