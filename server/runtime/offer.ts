// Which tools a turn offers the model (R-check-turn): the run's catalog was read once, but an operation its module's
// check() gates is offered only on the turns check() says yes, asked of the tool host before each model request
// (its answer kept up to the runtime's checkMaxAgeS, 30 s unless a test makes it shorter). A name the model was
// offered on an earlier turn of the run still dispatches when check() now says no, so the calls already in the
// conversation, and the model's memory of its tools, stay valid; a name never offered in the run is refused.
import type { ModelTool } from "@/server/agents/model-view";
import { matchName } from "./names";
import type { Run } from "./run";

export type Held = { name: string; why: string };

type Offering = {
  /** Every name the model has been offered in this run (replayed from the assistant messages' `held`). */
  ever: Set<string>;
  /** The host's last answer, kept for a turn on which the host cannot be asked. */
  last: Record<string, string> | null;
};

const offerings = new WeakMap<Run, Offering>();

function offeringOf(run: Run): Offering {
  let offering = offerings.get(run);
  if (!offering) {
    offering = { ever: new Set(run.catalog.tools.map((t) => t.name)), last: null };
    offerings.set(run, offering);
  }
  return offering;
}

function gated(run: Run) {
  return run.catalog.operations.filter((op) => op.gate);
}

/** The tools in catalog order, less those held back now. */
function toolsWithout(run: Run, held: ReadonlySet<string>): ModelTool[] {
  const listed = new Map(run.catalog.tools.map((t) => [t.name, t]));
  return run.catalog.operations.flatMap((op) => {
    if (held.has(op.name)) return [];
    const tool = listed.get(op.name) ?? (op.gate ? { name: op.name, description: op.gate.description, input_schema: structuredClone(op.input_schema) } : null);
    return tool ? [tool] : [];
  });
}

/**
 * The tools to offer on this turn, and (for a run with gated tools) which are held back with why, as the assistant's
 * message records it. A host that cannot be asked leaves its last answer standing, or holds every gated tool back.
 */
export async function offerThisTurn(run: Run): Promise<{ tools: ModelTool[]; held?: Held[] }> {
  const checked = gated(run);
  if (checked.length === 0) return { tools: run.catalog.tools };
  const offering = offeringOf(run);
  let answer: Record<string, string>;
  try {
    answer = await run.host.held(
      checked.map((op) => op.name),
      run.deps.settings.checkMaxAgeS ?? 30,
    );
    offering.last = answer;
  } catch (err) {
    const why = `the tool host could not be asked whether its check() allows it (${(err as Error).message})`;
    answer = offering.last ?? Object.fromEntries(checked.map((op) => [op.name, why]));
  }
  const held = checked.filter((op) => answer[op.name] !== undefined).map((op) => ({ name: op.name, why: answer[op.name]! }));
  noteOffered(run, held);
  return { tools: toolsWithout(run, new Set(held.map((h) => h.name))), held };
}

/** A turn's offer, live or replayed from its message: every gated tool not held back has now been offered. */
export function noteOffered(run: Run, held: readonly Held[] | undefined): void {
  if (!held) return;
  const offering = offeringOf(run);
  const out = new Set(held.map((h) => h.name));
  for (const op of gated(run)) if (!out.has(op.name)) offering.ever.add(op.name);
}

/** The names a call may use in this run: every operation offered now or on an earlier turn. */
export function dispatchable(run: Run): string[] {
  const { ever } = offeringOf(run);
  return run.catalog.operations.filter((op) => ever.has(op.name)).map((op) => op.name);
}

/** Why a call of a gated tool never offered in this run does not run, or null when the name is not one. */
export function neverOffered(run: Run, called: string): string | null {
  const { ever, last } = offeringOf(run);
  const unseen = gated(run).filter((op) => !ever.has(op.name)).map((op) => op.name);
  const match = matchName(called, unseen, []);
  if (match.kind !== "offered") return null;
  const why = last?.[match.name] ?? "its check() has not answered True in this run";
  return `${match.name} is not offered to you in this run (${why}), so it did not run. Call only the tools you were given.`;
}
