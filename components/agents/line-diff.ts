// Two texts side by side with what changed marked: lines matched by jsdiff, a removed line beside the added line
// that replaced it, and within such a pair the words that differ. Small texts only (a tool's description and
// schema); past a number of edits where matching costs too much, every line counts as changed.
import { diffArrays } from "diff";

export type Segment = { text: string; changed: boolean };
/** One side of a row: its line number (from 1) and its text in pieces; null where the other side has a line alone. */
export type Side = { line: number; changed: boolean; segments: Segment[] } | null;
export type DiffRow = { left: Side; right: Side };

type Op = { kind: "same" | "removed" | "added"; a?: number; b?: number };

/** Past this many edits the texts are shown as wholly replaced: matching them would cost more than it tells. */
const MAX_EDITS = 2_000;

/** The edit script from `a` to `b` item by item (jsdiff's Myers diff), or null past MAX_EDITS. */
function script<T>(a: readonly T[], b: readonly T[]): Op[] | null {
  const changes = diffArrays([...a], [...b], { maxEditLength: MAX_EDITS });
  if (!changes) return null;
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  for (const change of changes) {
    for (let k = 0; k < change.value.length; k++) {
      if (change.added) ops.push({ kind: "added", b: j++ });
      else if (change.removed) ops.push({ kind: "removed", a: i++ });
      else ops.push({ kind: "same", a: i++, b: j++ });
    }
  }
  return ops;
}

/** Words, runs of spaces and single marks, so a changed word is marked rather than its whole line. */
function tokens(line: string): string[] {
  return line.match(/\w+|\s+|[^\w\s]/g) ?? [];
}

function merged(parts: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last && last.changed === part.changed) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}

/** A replaced line's pieces on each side, the words the other side lacks marked. */
function wordMarks(before: string, after: string): { left: Segment[]; right: Segment[] } {
  const a = tokens(before);
  const b = tokens(after);
  const ops = script(a, b);
  if (!ops) return { left: [{ text: before, changed: true }], right: [{ text: after, changed: true }] };
  const left: Segment[] = [];
  const right: Segment[] = [];
  for (const op of ops) {
    if (op.kind === "same") {
      left.push({ text: a[op.a!]!, changed: false });
      right.push({ text: b[op.b!]!, changed: false });
    } else if (op.kind === "removed") left.push({ text: a[op.a!]!, changed: true });
    else right.push({ text: b[op.b!]!, changed: true });
  }
  return { left: merged(left), right: merged(right) };
}

const lines = (text: string) => (text === "" ? [] : text.split("\n"));

export function sideBySide(before: string, after: string): DiffRow[] {
  const a = lines(before);
  const b = lines(after);
  const ops = script(a, b) ?? [...a.map((_, i): Op => ({ kind: "removed", a: i })), ...b.map((_, j): Op => ({ kind: "added", b: j }))];
  const rows: DiffRow[] = [];
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const i = removed[k];
      const j = added[k];
      const marks = i !== undefined && j !== undefined ? wordMarks(a[i]!, b[j]!) : null;
      rows.push({
        left: i === undefined ? null : { line: i + 1, changed: true, segments: marks?.left ?? [{ text: a[i]!, changed: true }] },
        right: j === undefined ? null : { line: j + 1, changed: true, segments: marks?.right ?? [{ text: b[j]!, changed: true }] },
      });
    }
    removed = [];
    added = [];
  };
  for (const op of ops) {
    if (op.kind === "removed") removed.push(op.a!);
    else if (op.kind === "added") added.push(op.b!);
    else {
      flush();
      const same = [{ text: a[op.a!]!, changed: false }];
      rows.push({ left: { line: op.a! + 1, changed: false, segments: same }, right: { line: op.b! + 1, changed: false, segments: same } });
    }
  }
  flush();
  return rows;
}

/** JSON with every object's keys sorted, two spaces deep: two schemas that say the same thing read the same. */
export function stableText(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(Object.keys(v as object).sort().map((key) => [key, sorted((v as Record<string, unknown>)[key])]))
        : v;
  return JSON.stringify(sorted(value), null, 2) ?? "";
}
