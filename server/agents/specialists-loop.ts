// A loop of specialists (R-spec-cycle): the shortest way an agent comes back to itself through the agents its
// entries ask, and the sentence that names it. Pure.

/** [start, …, start], the shortest loop from `start` back to itself along `edges`, or null when there is none. */
export function findLoop(start: string, edges: ReadonlyMap<string, readonly string[]>): string[] | null {
  const from = new Map<string, string>();
  let frontier = [start];
  const seen = new Set<string>();
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const to of edges.get(node) ?? []) {
        if (to === start) {
          const path = [start];
          for (let at: string | undefined = node; at !== undefined && at !== start; at = from.get(at)) path.splice(1, 0, at);
          return [...path, start];
        }
        if (seen.has(to)) continue;
        seen.add(to);
        from.set(to, node);
        next.push(to);
      }
    }
    frontier = next;
  }
  return null;
}

/** "triage → research → triage", in a sentence that says what to do. */
export function loopWords(names: readonly string[]): string {
  const loop = names.join(" → ");
  return names.length <= 2
    ? `This agent would ask itself (${loop}); an agent cannot be its own specialist, so remove this entry.`
    : `This makes a loop of specialists (${loop}), which a task could go round without end; remove one of its entries.`;
}
