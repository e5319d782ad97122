"use client";
// New server and Edit: name, description, how to reach it (a stdio command with its arguments, working folder and
// environment, or a Streamable HTTP URL with headers and perhaps an OAuth sign-in) and the idle time. The registry checks everything before it
// saves anything, and each of its sentences shows at the field it names; the rest under the form.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { errorSentence, problemsIn, refusalOf } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { OAuthFields } from "./oauth-fields";
import { PairsEditor } from "./pairs-editor";
import { configOf, emptyForm, formOf, localProblems, placeProblems, type ServerForm } from "./server-form";
import { TextArea } from "./text-area";
import type { ServerRow } from "./types";

const SECRETS_LIST = "mcp-secret-names";

/** Sentences at `place`, joined; null when there are none. */
const at = (placed: Map<string, string[]>, place: string) => placed.get(place)?.join(" ") ?? null;

/** Sentences for the keys of `kind` ("env", "headers"), by key. */
function byKey(placed: Map<string, string[]>, kind: string): Map<string, string[]> {
  const prefix = `${kind}:`;
  return new Map([...placed].filter(([place]) => place.startsWith(prefix)).map(([place, said]) => [place.slice(prefix.length), said]));
}

function ServerFormBody({ server, onClose }: { server: ServerRow | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const secrets = useQuery(trpc.secrets.names.queryOptions());
  const [form, setForm] = useState<ServerForm>(() => (server ? formOf(server) : emptyForm()));
  const [shown, setShown] = useState<Array<{ path: string; message: string }>>([]);
  const create = useMutation(trpc.mcpServers.create.mutationOptions());
  const update = useMutation(trpc.mcpServers.update.mutationOptions());
  const save = server ? update : create;
  const change = (patch: Partial<ServerForm>) => setForm((old) => ({ ...old, ...patch }));

  const refused = [...problemsIn<{ path: string; message: string }>(save.error, "problems", "INVALID_MCP_SERVER"), ...refusalOf(save.error).issues];
  const placed = placeProblems([...shown, ...refused]);
  const unplaced = [...(placed.get("other") ?? []), ...(placed.get("transport") ?? [])];
  const other = save.error && refused.length === 0 ? errorSentence(save.error) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    const local = localProblems(form);
    setShown(local);
    if (local.length > 0) return;
    const done = {
      onSuccess: async () => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.mcpServers.list.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.mcpServers.names.queryKey() }),
        ]);
        onClose();
      },
    };
    if (server) update.mutate({ id: server.id, server: configOf(form) }, done);
    else create.mutate({ server: configOf(form) }, done);
  }

  const stdio = form.transport === "stdio";
  return (
    <form onSubmit={submit} className="flex flex-col gap-2" autoComplete="off" noValidate>
      <datalist id={SECRETS_LIST}>
        {(secrets.data ?? []).flatMap((secret) => [
          <option key={secret.name} value={`\${${secret.name}}`} label={secret.description || secret.name} />,
          ...(stdio ? [] : [<option key={`bearer-${secret.name}`} value={`Bearer \${${secret.name}}`} label={`${secret.name} as a bearer token`} />]),
        ])}
      </datalist>
      <Field
        id="mcp-name"
        label="Name"
        autoFocus
        required
        spellCheck={false}
        value={form.name}
        onChange={(e) => change({ name: e.target.value })}
        placeholder="tickets"
        error={at(placed, "name")}
        hint="Builders pick the server by this name."
      />
      <Field
        id="mcp-description"
        label="Description"
        value={form.description}
        onChange={(e) => change({ description: e.target.value })}
        placeholder="What its tools do"
        error={at(placed, "description")}
      />
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="mb-1 font-medium">Transport</legend>
        <div className="flex gap-4">
          {(["stdio", "http"] as const).map((kind) => (
            <label key={kind} className="flex items-center gap-1.5">
              <input type="radio" name="mcp-transport" value={kind} checked={form.transport === kind} onChange={() => change({ transport: kind })} />
              {kind === "stdio" ? "stdio (a command the studio starts)" : "Streamable HTTP (a URL)"}
            </label>
          ))}
        </div>
      </fieldset>
      {stdio ? (
        <>
          <Field
            id="mcp-command"
            label="Command"
            required
            spellCheck={false}
            value={form.command}
            onChange={(e) => change({ command: e.target.value })}
            placeholder="npx"
            error={at(placed, "command")}
            hint="A program on the studio's PATH, or its absolute path."
          />
          <TextArea
            id="mcp-args"
            label="Arguments"
            value={form.args}
            onChange={(args) => change({ args })}
            placeholder={"-y\n@modelcontextprotocol/server-memory"}
            error={at(placed, "args")}
            hint="One argument per line; ${NAME} names a secret."
          />
          <Field
            id="mcp-cwd"
            label="Working folder"
            spellCheck={false}
            value={form.cwd}
            onChange={(e) => change({ cwd: e.target.value })}
            placeholder="/srv/mcp/tickets"
            error={at(placed, "cwd")}
            hint="An absolute path; empty for the studio's own."
          />
          <PairsEditor
            id="mcp-env"
            legend="Environment"
            keyLabel="Variable"
            keyPlaceholder="API_TOKEN"
            valuePlaceholder="${API_TOKEN}"
            pairs={form.env}
            onChange={(env) => change({ env })}
            problems={byKey(placed, "env")}
            listProblems={placed.get("env") ?? []}
            suggestions={SECRETS_LIST}
          />
        </>
      ) : (
        <>
          <Field
            id="mcp-url"
            label="URL"
            required
            inputMode="url"
            spellCheck={false}
            value={form.url}
            onChange={(e) => change({ url: e.target.value })}
            placeholder="https://mcp.example.com/mcp"
            error={at(placed, "url")}
            hint="The server's Streamable HTTP endpoint; an older HTTP+SSE server is reached too."
          />
          <PairsEditor
            id="mcp-headers"
            legend="Headers"
            keyLabel="Header"
            keyPlaceholder="Authorization"
            valuePlaceholder="Bearer ${API_TOKEN}"
            pairs={form.headers}
            onChange={(headers) => change({ headers })}
            problems={byKey(placed, "headers")}
            listProblems={placed.get("headers") ?? []}
            suggestions={SECRETS_LIST}
          />
          <OAuthFields form={form} change={change} at={(place) => at(placed, place)} secrets={SECRETS_LIST} />
        </>
      )}
      <Field
        id="mcp-idle"
        label="Stop after idle (minutes)"
        inputMode="decimal"
        value={form.idleMinutes}
        onChange={(e) => change({ idleMinutes: e.target.value })}
        error={at(placed, "idle")}
        hint="0 keeps it running; it starts again when next needed."
      />
      {unplaced.length > 0 || other ? (
        <p role="alert" className="text-sm text-red-600">
          {[...unplaced, ...(other ? [other] : [])].join(" ")}
        </p>
      ) : refused.length > 0 ? (
        <p role="alert" className="text-sm text-red-600">
          Nothing was saved: fix what is marked above, then save again.
        </p>
      ) : null}
      <DialogActions onCancel={onClose} label={server ? "Save changes" : "Save server"} busyLabel="Checking and saving…" busy={save.isPending} className="mt-2" />
    </form>
  );
}

/** Open for a new server when `server` is "new", for that row's Edit when a row; closed when null. */
export function ServerDialog({ server, onClose }: { server: ServerRow | "new" | null; onClose: () => void }) {
  const row = server === "new" ? null : server;
  return (
    <Dialog
      open={server !== null}
      onOpenChange={(next) => (next ? undefined : onClose())}
      size="wide"
      title={row ? `Edit ${row.name}` : "New MCP server"}
      description="The studio starts or reaches the server when an agent, a listing or Test connection first needs it."
    >
      {server !== null ? <ServerFormBody key={row?.id ?? "new"} server={row} onClose={onClose} /> : null}
    </Dialog>
  );
}
