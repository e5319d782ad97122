// A request body read whole, up to a limit: a larger one is answered with a sentence rather than held in memory.
// The rest of a refused body is read and dropped, so the sender gets the answer instead of a reset connection.

/** The largest body any route takes. Try it's arguments have their own, smaller limit (R-req-acting-post). */
export const BODY_LIMIT_BYTES = 8 * 1024 * 1024;
/** Past this much, a refused body is no longer drained: the connection is cut instead. */
const DRAIN_LIMIT_BYTES = 8 * BODY_LIMIT_BYTES;

export function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

export type Bounded = { request: Request; refusal: null } | { request: null; refusal: string };

/** `request` with its body read into memory, or the sentence refusing a body over `limit` bytes. */
export async function withinBodyLimit(request: Request, limit = BODY_LIMIT_BYTES): Promise<Bounded> {
  if (!request.body) return { request, refusal: null };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size <= limit) chunks.push(value);
    else if (size > DRAIN_LIMIT_BYTES) {
      await reader.cancel();
      break;
    }
  }
  if (size > limit) {
    return { request: null, refusal: `This request's body is ${megabytes(size)}, over the studio's limit of ${megabytes(limit)}: send less.` };
  }
  // Made from its parts: Next hands routes a Request of its own class, which the Request constructor cannot copy.
  const body = Buffer.concat(chunks);
  return { request: new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal }), refusal: null };
}
