// Server-Timing for the answers whose parts someone reads (the live preview's: bench:preview, DevTools' Timing tab).
// The parts are kept per request against its Headers object, which the route and the procedure both hold, so no
// request-scoped storage is needed and a request nobody started timing costs nothing (R-preview-server-timing).

type Parts = { began: number; parts: [name: string, ms: number][] };

const timings = new WeakMap<Headers, Parts>();

/** Start timing the request these headers belong to. */
export function startTiming(headers: Headers): void {
  timings.set(headers, { began: performance.now(), parts: [] });
}

/** Runs `work`, and records how long it took under `name` when the request is being timed. */
export async function timed<T>(headers: Headers, name: string, work: () => Promise<T>): Promise<T> {
  const timing = timings.get(headers);
  if (!timing) return work();
  const began = performance.now();
  try {
    return await work();
  } finally {
    timing.parts.push([name, performance.now() - began]);
  }
}

/** The Server-Timing header's value: each recorded part, then the whole handler as `handler`; null when untimed. */
export function serverTiming(headers: Headers): string | null {
  const timing = timings.get(headers);
  if (!timing) return null;
  const parts: [string, number][] = [...timing.parts, ["handler", performance.now() - timing.began]];
  return parts.map(([name, ms]) => `${name};dur=${ms.toFixed(2)}`).join(", ");
}
