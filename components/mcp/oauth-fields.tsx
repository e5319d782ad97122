"use client";
// The sign-in part of an http server's form (R-mcp-oauth-connect): whether an admin signs in with OAuth, and the
// optional client id, its secret (picked by name) and scopes. Each of the registry's sentences shows at its field.
import { Field } from "@/components/ui/field";
import type { ServerForm } from "./server-form";

type Props = {
  form: ServerForm;
  change: (patch: Partial<ServerForm>) => void;
  /** The sentences at a place of the form ("auth", "clientId"…), or null. */
  at: (place: string) => string | null;
  /** The id of the secrets' datalist the client secret suggests from. */
  secrets: string;
};

export function OAuthFields({ form, change, at, secrets }: Props) {
  const problem = at("auth");
  return (
    <fieldset className="flex flex-col gap-2 text-sm">
      <legend className="mb-1 font-medium">Sign-in</legend>
      <label className="flex items-center gap-1.5">
        <input type="checkbox" checked={form.oauth} onChange={(e) => change({ oauth: e.target.checked })} aria-describedby="mcp-oauth-note" />
        Sign in with OAuth (an admin presses Connect and consents; the studio keeps the tokens)
      </label>
      <span id="mcp-oauth-note" className={`text-xs ${problem ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`}>
        {problem ?? "For servers that demand a sign-in. Without it, only the headers above are sent."}
      </span>
      {form.oauth ? (
        <div className="grid gap-2 sm:grid-cols-2">
          <Field
            id="mcp-client-id"
            label="Client id"
            spellCheck={false}
            value={form.clientId}
            onChange={(e) => change({ clientId: e.target.value })}
            error={at("clientId")}
            hint="Leave empty for the studio to register itself with the server."
          />
          <Field
            id="mcp-client-secret"
            label="Client secret"
            spellCheck={false}
            list={secrets}
            value={form.clientSecret}
            onChange={(e) => change({ clientSecret: e.target.value })}
            placeholder="${TICKETS_CLIENT_SECRET}"
            error={at("clientSecret")}
            hint="A secret's name, as ${NAME}; only with a client id."
          />
          <Field
            id="mcp-scopes"
            label="Scopes"
            spellCheck={false}
            value={form.scopes}
            onChange={(e) => change({ scopes: e.target.value })}
            placeholder="tickets:read tickets:write"
            error={at("scopes")}
            hint="Separated by spaces; empty asks for what the server offers."
          />
        </div>
      ) : null}
    </fieldset>
  );
}
