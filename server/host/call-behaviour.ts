// quiver/behaviour's answer: a Tool class's own word on one call (R-tool-class-per-call), whether these very
// arguments make it read-only, safe to run beside other calls, and destructive. Checked here before the loop uses it.
import { z } from "zod";

export const callBehaviourSchema = z.object({
  read_only: z.boolean(),
  concurrent: z.boolean(),
  destructive: z.boolean(),
  /** Whether the class decides per call; false: its declared answers. */
  per_call: z.boolean(),
  /** Why a method could not answer, when the cautious answer stands in for it. */
  problem: z.string().nullable(),
});
export type CallBehaviour = z.infer<typeof callBehaviourSchema>;
