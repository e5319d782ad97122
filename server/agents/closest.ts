// "Did you mean": the closest few names to a misspelt one, for the sentence that refuses it. Spelling only ever
// suggests (R-loop-name-repair: similarity never selects a tool). Pure, so the browser may import it.

/** Levenshtein distance, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * Up to `limit` candidates near `word`, nearest first: within a third of the word's length in edits (at least
 * two), or containing it, or contained in it (so "read" suggests "read_file").
 */
export function closest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = word.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of new Set(candidates)) {
    const distance = editDistance(word, name);
    const other = name.toLowerCase();
    const contains = lower.length >= 3 && (other.includes(lower) || lower.includes(other));
    if (distance <= Math.max(2, Math.floor(word.length / 3)) || contains) {
      scored.push({ name, score: contains ? Math.min(distance, 1 + Math.abs(other.length - lower.length) / 10) : distance });
    }
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((s) => s.name);
}

/** " Did you mean a, b or c?" for these names — empty when there are none. */
export function suggestion(near: readonly string[]): string {
  if (near.length === 0) return "";
  const listed = near.length === 1 ? near[0]! : `${near.slice(0, -1).join(", ")} or ${near.at(-1)}`;
  return ` Did you mean ${listed}?`;
}

/** " Did you mean a, b or c?" for the names near `word` — empty when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>, limit = 3): string {
  return suggestion(closest(word, candidates, limit));
}
