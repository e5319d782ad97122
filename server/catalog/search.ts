// The builder's "Add a source" palette: find sources and operations by words ("read files") or by need in the
// capability vocabulary ("file.write"). A need matches only operations that declare the tag (R-sys-capabilities,
// never words a description happens to share); words rank by where they match.
import { CAPABILITIES, capabilitiesMatching } from "@/server/operations/capabilities";
import type { Operation } from "@/server/operations/operation";
import type { Source } from "./sources";

export type OperationHit = { name: string; title: string; score: number; reasons: string[] };
export type SearchHit = { entry: string; title: string; offered: boolean; score: number; operations: OperationHit[] };

// How much a match is worth, by where it is: a declared need beats any words.
const NEED = 100;
const IMPLIED_NEED = 60;
const WEIGHTS = { name: 30, title: 25, source: 12, description: 10, sourceDescription: 4 } as const;
type Field = keyof typeof WEIGHTS;
const FIELD_WORDS: Record<Field, string> = {
  name: "name",
  title: "title",
  source: "source's title",
  description: "description",
  sourceDescription: "source's description",
};

/** Plural and -ing forms fold onto one word: "files" and "file", "fetching" and "fetch". */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(stem);
}

/** Full points for the whole word, less for a word it begins (three letters or more): "file" in "filesystem". */
function matchIn(word: string, haystack: string[]): number {
  if (haystack.includes(word)) return 1;
  return word.length >= 3 && haystack.some((w) => w.startsWith(word)) ? 0.6 : 0;
}

type Query = { needs: string[][]; words: string[]; implied: Set<string> };

function parseQuery(text: string): Query {
  const needs: string[][] = [];
  const plain: string[] = [];
  for (const token of text.toLowerCase().split(/[\s,]+/).filter(Boolean)) {
    const tags = token.includes(".") ? capabilitiesMatching(token) : [];
    if (tags.length > 0) needs.push(tags);
    else plain.push(...words(token));
  }
  // Words that all sit in one capability's tag or label imply that need ("read files" → file.read).
  const implied = new Set<string>();
  if (plain.length > 0) {
    for (const capability of CAPABILITIES) {
      const vocabulary = [...words(capability.tag), ...words(capability.label)];
      if (plain.every((w) => vocabulary.includes(w))) implied.add(capability.tag);
    }
  }
  return { needs, words: plain, implied };
}

function scoreOperation(op: Operation, source: Source, query: Query): OperationHit | null {
  const reasons: string[] = [];
  let score = 0;
  for (const alternatives of query.needs) {
    const tag = alternatives.find((t) => op.capabilities.includes(t));
    if (!tag) return null;
    score += NEED;
    reasons.push(`declares ${tag}`);
  }
  const implied = op.capabilities.filter((t) => query.implied.has(t));
  if (implied.length > 0) {
    score += IMPLIED_NEED;
    reasons.push(`declares ${implied.join(", ")}`);
  }
  const fields: Record<Field, string[]> = {
    name: words(op.name),
    title: words(op.title),
    description: words(op.description),
    source: words(`${source.title} ${source.entry}`),
    sourceDescription: words(source.description),
  };
  let covered = true;
  let wordScore = 0;
  const where = new Set<Field>();
  for (const word of query.words) {
    let best = 0;
    let bestField: Field | null = null;
    for (const field of Object.keys(WEIGHTS) as Field[]) {
      const points = WEIGHTS[field] * matchIn(word, fields[field]);
      if (points > best) [best, bestField] = [points, field];
    }
    if (bestField) where.add(bestField);
    else covered = false;
    wordScore += best;
  }
  // Words count only when every one of them matched somewhere; a need (declared or implied) stands alone.
  if (covered && query.words.length > 0) {
    score += wordScore;
    reasons.push(`words in its ${[...where].map((field) => FIELD_WORDS[field]).join(", ")}`);
  }
  if (score === 0) return null;
  return { name: op.name, title: op.title, score: Math.round(score), reasons };
}

/** Sources with their matching operations, best first; offered sources before those that cannot be added. */
export function searchSources(sources: readonly Source[], text: string, limit = 20): SearchHit[] {
  const query = parseQuery(text);
  if (query.needs.length === 0 && query.words.length === 0) return [];
  const hits: SearchHit[] = [];
  for (const source of sources) {
    const operations = source.operations
      .map((op) => scoreOperation(op, source, query))
      .filter((hit): hit is OperationHit => hit !== null)
      .sort((a, b) => b.score - a.score);
    if (operations.length === 0) continue;
    hits.push({ entry: source.entry, title: source.title, offered: source.offered, score: operations[0]!.score, operations });
  }
  return hits
    .sort((a, b) => Number(b.offered) - Number(a.offered) || b.score - a.score || a.title.localeCompare(b.title))
    .slice(0, limit);
}
