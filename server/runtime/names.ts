// The name a model called, matched to one of the run's operations (R-loop-name-repair):
// an exact name always wins; a name is repaired only when it differs by formatting (case, separators, the known
// prefixes) and exactly one operation matches; anything else is never dispatched. The model is told the operations a
// name shares with others (R-alias-several), else the closest names and the tools it has. Spelling similarity only
// ever suggests. Pure.
import { closest, suggestion } from "@/server/agents/closest";

export type NameMatch =
  /** Offered to the model: run it (repaired: the model wrote it differently). */
  | { kind: "offered"; name: string; repaired: boolean }
  /** An operation of the studio this agent was not given (not narrowed to, or another file): refused. */
  | { kind: "withheld"; name: string }
  | { kind: "unknown"; message: string };

const PREFIXES = ["functions.", "tools.", "default_api:"];

/** The name with formatting taken out: a known prefix, case, camelCase, and the separators - . _ and space. */
export function nameKey(name: string): string {
  let bare = name.trim();
  for (const prefix of PREFIXES) {
    if (bare.toLowerCase().startsWith(prefix)) {
      bare = bare.slice(prefix.length);
      break;
    }
  }
  return bare
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[\s.\-_]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** The candidates `name` matches once formatting is set aside. */
function matching(name: string, candidates: readonly string[]): string[] {
  const key = nameKey(name);
  return key === "" ? [] : candidates.filter((candidate) => nameKey(candidate) === key);
}

function only(name: string, candidates: readonly string[]): string | null {
  const found = matching(name, candidates);
  return found.length === 1 ? found[0]! : null;
}

/** What the model's `called` name is among the offered operations and the ones this agent was not given. */
export function matchName(called: string, offered: readonly string[], withheld: readonly string[]): NameMatch {
  if (offered.includes(called)) return { kind: "offered", name: called, repaired: false };
  if (withheld.includes(called)) return { kind: "withheld", name: called };
  const repaired = only(called, offered);
  if (repaired) return { kind: "offered", name: repaired, repaired: true };
  const other = only(called, withheld);
  if (other) return { kind: "withheld", name: other };
  const several = matching(called, offered);
  if (several.length > 1) return { kind: "unknown", message: severalNames(called, several) };
  return { kind: "unknown", message: unknownName(called, offered) };
}

export function listNames(names: readonly string[]): string {
  return names.length === 0 ? "none" : names.join(", ");
}

export function unknownName(called: string, offered: readonly string[]): string {
  const near = closest(nameKey(called) || called, offered, 3);
  return (
    `There is no tool named “${called}”, so nothing ran.${suggestion(near)} ` +
    `Call one of your tools by its exact name: ${listNames(offered)}.`
  );
}

/** R-alias-several: a name two or more tools share once formatting is set aside is not guessed between. */
export function severalNames(called: string, matches: readonly string[]): string {
  const named = matches.length === 2 ? `${matches[0]} and ${matches[1]}` : `${matches.slice(0, -1).join(", ")} and ${matches.at(-1)}`;
  return (
    `“${called}” matches ${matches.length} of your tools once case and separators are set aside: ${named}, ` +
    `so nothing ran. Call the one you mean by its exact name.`
  );
}

export function withheldName(name: string, offered: readonly string[]): string {
  return `${name} is not one of this agent's tools, so it was refused and did not run. Your tools are: ${listNames(offered)}.`;
}

/** A name a provider accepts in the transcript (^[a-zA-Z0-9_-]{1,128}$), for calls whose name matched nothing. */
export function transcriptName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 128);
  return clean === "" ? "unknown_tool" : clean;
}
