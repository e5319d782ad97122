// What the Schema preview shows for a buffer: the newest good derivation, and whether the buffer has
// moved past it (while the buffer does not parse, the last good preview stays, marked stale).
import type { CatalogFile } from "@/server/host/protocol";

export type Problem = { line: number | null; message: string };

export type PreviewState = {
  /** The last derivation from a buffer that parsed; null before the first answer. */
  shown: CatalogFile | null;
  /** The buffer no longer parses, so `shown` describes an older version of it. */
  stale: boolean;
  /** The newest answer's errors, whatever they are: these are the Problems. */
  problems: Problem[];
};

export const emptyPreview: PreviewState = { shown: null, stale: false, problems: [] };

const PARSE_ERROR = /^(SyntaxError|IndentationError|TabError)\b/;

/** Whether the host could not even parse the source (as opposed to errors against a parsed file). */
export function doesNotParse(entry: CatalogFile): boolean {
  return entry.errors.some((error) => PARSE_ERROR.test(error.message));
}

/** The preview after the newest answer `entry` arrives. */
export function applyPreview(previous: PreviewState, entry: CatalogFile): PreviewState {
  if (doesNotParse(entry) && previous.shown) {
    return { shown: previous.shown, stale: true, problems: entry.errors };
  }
  return { shown: entry, stale: false, problems: entry.errors };
}
