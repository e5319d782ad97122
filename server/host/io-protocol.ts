// What a tool's ctx.io asks the studio while its call runs (quiver/io): one decision of the person, of four kinds.
// Checked here, where the request arrives from the tool host; the limits match the host's own (quiver/_io.py).
// Pure, so the browser may import the type. Edit when a kind of decision is added.
import { z } from "zod";

export const ioRequestSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ask"), question: z.string().min(1).max(10_000), options: z.array(z.string().max(1_000)).max(50) }),
  z.object({ kind: z.literal("plan"), plan: z.string().min(1).max(20_000) }),
  z.object({ kind: z.literal("shell"), command: z.string().min(1).max(10_000), reason: z.string().max(2_000) }),
  z.object({ kind: z.literal("write"), path: z.string().min(1).max(4_096), summary: z.string().max(2_000) }),
]);

export type IoRequest = z.infer<typeof ioRequestSchema>;
export type IoKind = IoRequest["kind"];

/** A quiver/io request checked, or the sentence saying what is wrong with it. */
export function parseIoRequest(params: Record<string, unknown>): IoRequest | string {
  const parsed = ioRequestSchema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `quiver/io needs a kind (ask, plan, shell or write) and its fields: ${issue?.path.join(".") || "kind"}: ${issue?.message}`;
}
