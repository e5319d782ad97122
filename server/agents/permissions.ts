// Whether a call may run: the precedence of docs/rules.md, Permissions, as pure functions the runtime and the builder share.
//   1. An override for the operation (the run's manager, e.g. an admin's rule) beats every row.
//   2. Otherwise the operation's explicit permission beats the agent's default.
//   3. DENY then blocks the call even against an earlier session grant ("Always in this run").
//   4. A session grant satisfies ASK without another prompt.
// ASK needs someone to ask: where nobody can answer (a run without an approver), ASK refuses (R-perm-ask-needs-approver).
// Pure, so the builder's page can import the explanations.
import { ASK_USER_PERMISSION } from "@/server/system/ask-user";

export const PERMISSION_LEVELS = ["ALLOW", "ASK", "DENY"] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export type PermissionInput = {
  /** What the agent's declaration sets for this operation, if anything. */
  explicit?: PermissionLevel | null;
  /** The agent's policy.permission. */
  agentDefault: PermissionLevel;
  /** Whether the person granted this operation for the rest of the run. */
  sessionGrant?: boolean;
  /** A rule above the agent for this operation name, if any. */
  override?: PermissionLevel | null;
};

/**
 * The explicit permission of one operation of an entry: what the builder set, else what the operation was
 * registered with. R-perm-ask-user-allowed: ask_user is registered with ALLOW, so an agent whose default is ASK does not ask
 * before asking; a builder may still set it to Ask me or Never.
 */
export function explicitPermission(source: string, operation: string, permissions: Readonly<Record<string, PermissionLevel>>): PermissionLevel | null {
  return permissions[operation] ?? (source === "system:ask_user" && operation === "ask_user" ? ASK_USER_PERMISSION : null);
}

export type Effective = { level: PermissionLevel; from: "override" | "explicit" | "default" };

export function effectivePermission(input: PermissionInput): Effective {
  if (input.override) return { level: input.override, from: "override" };
  if (input.explicit) return { level: input.explicit, from: "explicit" };
  return { level: input.agentDefault, from: "default" };
}

export type Decision = {
  /** run: call it now; ask: put an approval in front of the person first; refuse: answer the model a refusal. */
  action: "run" | "ask" | "refuse";
  level: PermissionLevel;
  /** One sentence on why, for the trace and the model's refusal. */
  reason: string;
};

export function mayRun(input: PermissionInput & { canAsk?: boolean }): Decision {
  const { level, from } = effectivePermission(input);
  const by = from === "override" ? "a rule above this agent" : from === "explicit" ? "this operation's setting" : "the agent's default";
  if (level === "DENY") {
    return {
      action: "refuse",
      level,
      reason: input.sessionGrant ? `Refused by ${by}, which an earlier approval in this run does not lift.` : `Refused by ${by}.`,
    };
  }
  if (level === "ALLOW") return { action: "run", level, reason: `Allowed by ${by}.` };
  if (input.sessionGrant) return { action: "run", level, reason: "Approved for the rest of this run." };
  if (input.canAsk === false) return { action: "refuse", level, reason: `Needs approval (${by}), and nobody can approve calls in this run.` };
  return { action: "ask", level, reason: `Needs approval (${by}).` };
}

/** The builder's words for each level, as the Approval control shows them. */
export const PERMISSION_LABELS: Record<PermissionLevel, string> = { ALLOW: "Allowed", ASK: "Ask me", DENY: "Never" };

/** The line beside an operation's Approval control: what will happen, and whether it is the agent's default. */
export function explainPermission(input: { explicit?: PermissionLevel | null; agentDefault: PermissionLevel }): string {
  const { level, from } = effectivePermission(input);
  const what = {
    ALLOW: "Runs without asking.",
    ASK: "Asks you first, each time, unless you approve it for the rest of the run.",
    DENY: "Never runs, even if approved earlier in the run; the agent is told it was refused.",
  }[level];
  return from === "default" ? `${what} (This agent's default: ${PERMISSION_LABELS[level]}.)` : what;
}
