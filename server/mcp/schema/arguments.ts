// The other half of OpenAI's strict mode (R-mcp-schema-normalise): a property the server lets the model leave out
// was offered as required-but-nullable, so a null the model sends there is taken out before the call goes on.
import { isSchema, without } from "./walk";

/** The arguments without the nulls that stand for "left out" at `paths` (Normalised.nullMeansOmitted). */
export function omitNullsMeaningOmitted(args: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  let out = args;
  for (const path of paths) out = dropAt(out, path.split("/").slice(1).map(unescape)) as Record<string, unknown>;
  return out;
}

const unescape = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/** A copy of `value` with the null at `segments` removed; `*` is every item of an array (or a key named "*"). */
function dropAt(value: unknown, segments: string[]): unknown {
  const [head, ...rest] = segments;
  if (head === undefined) return value;
  if (Array.isArray(value)) {
    if (head === "*") return value.map((item) => dropAt(item, rest));
    if (!/^\d+$/.test(head) || Number(head) >= value.length) return value;
    return value.map((item, index) => (index === Number(head) ? dropAt(item, rest) : item));
  }
  if (!isSchema(value) || !Object.hasOwn(value, head)) return value;
  if (rest.length === 0) {
    if (value[head] !== null) return value;
    return without(value, head);
  }
  return { ...value, [head]: dropAt(value[head], rest) };
}
