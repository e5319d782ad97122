// The New connection / Edit form as the admin fills it, and what it sends: to Save connection, and to Test before
// anything is saved. Pure, so the rules of the form (a preset fills the address, "only these" needs a model) are
// tested without a page.
import type { Connection } from "./types";

export type Provider = "openai" | "anthropic" | "openai-compatible";

export type ConnectionForm = {
  name: string;
  provider: Provider;
  baseUrl: string;
  /** `${NAME}` of the secret holding the key, or "" for none. */
  apiKey: string;
  defaultModel: string;
  /** Every model the provider lists, or only those in `models`. */
  offer: "all" | "only";
  models: string[];
};

export function emptyForm(): ConnectionForm {
  return { name: "", provider: "openai-compatible", baseUrl: "", apiKey: "", defaultModel: "", offer: "all", models: [] };
}

export function formOf(row: Connection): ConnectionForm {
  return {
    name: row.name,
    provider: row.provider as Provider,
    baseUrl: row.baseUrl ?? "",
    apiKey: row.apiKey ?? "",
    defaultModel: row.defaultModel ?? "",
    offer: row.models === null ? "all" : "only",
    models: row.models ?? [],
  };
}

/** What Test checks: the connection as it stands in the form, saved or not. */
export function draftOf(form: ConnectionForm) {
  return {
    provider: form.provider,
    ...(form.baseUrl.trim() ? { baseUrl: form.baseUrl.trim() } : {}),
    ...(form.apiKey ? { apiKey: form.apiKey } : {}),
    ...(form.defaultModel.trim() ? { defaultModel: form.defaultModel.trim() } : {}),
  };
}

/** What Save connection sends: a blank field as null (cleared on Edit); `models: null` offers every model listed. */
export function inputOf(form: ConnectionForm) {
  return {
    name: form.name.trim(),
    provider: form.provider,
    baseUrl: form.baseUrl.trim() || null,
    apiKey: form.apiKey || null,
    defaultModel: form.defaultModel.trim() || null,
    models: form.offer === "all" ? null : form.models,
  };
}

/** Adds typed ids (one or several, split on commas and spaces) to the list on offer, each once. */
export function withModels(models: readonly string[], typed: string): string[] {
  const added = typed.split(/[\s,]+/).map((id) => id.trim()).filter(Boolean);
  return [...new Set([...models, ...added])];
}

export type FormProblem = { field: "name" | "baseUrl" | "models"; message: string };

/** What the page can say at once; the server checks the rest (the name's form, the secret, the address). */
export function localProblems(form: ConnectionForm): FormProblem[] {
  const problems: FormProblem[] = [];
  if (!form.name.trim()) problems.push({ field: "name", message: "Give the connection a name builders will pick it by, such as local-ollama." });
  if (form.provider === "openai-compatible" && !form.baseUrl.trim()) {
    problems.push({ field: "baseUrl", message: "Write the server's address, such as http://127.0.0.1:11434/v1, or pick a preset." });
  }
  if (form.offer === "only" && form.models.length === 0) {
    problems.push({ field: "models", message: "Add at least one model to offer, or choose All the provider lists." });
  }
  return problems;
}

/** A name for the connection made from an agent's own settings: "ollama-127-0-0-1", "openai". */
export function suggestedName(provider: string, baseUrl: string | null): string {
  let host = "";
  try {
    host = baseUrl ? new URL(baseUrl).hostname : "";
  } catch {
    host = "";
  }
  const base = provider === "openai-compatible" ? (host ? `local-${host}` : "local-server") : provider;
  return base.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "connection";
}
