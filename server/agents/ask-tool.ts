// The agent itself as one tool (R-api-mcp-ask): `ask_<agent slug>`, a message in and the agent's reply out, the
// shape an agent is offered as to programs and to other agents. Edit when that tool's name or input changes.
import type { JsonSchema } from "@/server/operations/operation";

/** "Triage (inbox)" → "triage_inbox": lower case, runs of anything else as one _, at most 60 characters. */
export function agentSlug(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 60).replace(/_+$/, "");
  return slug || "agent";
}

/**
 * The tool's name for this agent. Where one of the agent's own tools already has it, the agent tool gives way
 * (`ask_<slug>_agent`), so every name offered stays one tool.
 */
export function askToolName(agentName: string, taken: readonly string[] = []): string {
  const name = `ask_${agentSlug(agentName)}`;
  return taken.includes(name) ? `${name}_agent` : name;
}

export function askToolDescription(agentName: string): string {
  return `Ask the agent “${agentName}” to do a task: send it the whole request as one message, and get its reply.`;
}

export const ASK_TOOL_SCHEMA: JsonSchema = {
  type: "object",
  properties: { message: { type: "string", description: "What to ask the agent, as you would ask a person: the task and everything it needs to know." } },
  required: ["message"],
  additionalProperties: false,
};
