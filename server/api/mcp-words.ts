// What the MCP endpoint says in words: the question an elicitation puts to the client's person (an approval, an
// answer, or what happened to a call that may have run, R-journal-manual), and the sentence a call answers while its
// run waits past the key's limit (R-api-mcp-elicit, R-api-mcp-pending). Edit when either changes.
import type { ElicitRequestFormParams } from "@modelcontextprotocol/server";
import type { Wait } from "./mcp-follow";

/** Arguments longer than this are cut in the question: the studio's run page shows them whole. */
const ARGS_SHOWN = 2_000;

function argsText(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > ARGS_SHOWN ? `${text.slice(0, ARGS_SHOWN)}…` : text;
}

export function approvalForm(wait: Extract<Wait, { kind: "approval" }>, agentName: string): ElicitRequestFormParams {
  return {
    mode: "form",
    message: `The agent “${agentName}” wants to run “${wait.title}” (${wait.operation}) with ${argsText(wait.args)}. ${wait.reason} Approve it once, or deny it?`,
    requestedSchema: {
      type: "object",
      properties: {
        decision: {
          type: "string",
          title: "Decision",
          oneOf: [
            { const: "approve", title: "Approve once" },
            { const: "deny", title: "Deny" },
          ],
        },
      },
      required: ["decision"],
    },
  };
}

export function questionForm(wait: Extract<Wait, { kind: "question" }>, agentName: string): ElicitRequestFormParams {
  const answer =
    wait.choices.length > 0
      ? { type: "string" as const, title: "Answer", enum: wait.choices }
      : { type: "string" as const, title: "Answer", maxLength: 100_000 };
  return {
    mode: "form",
    message: `The agent “${agentName}” asks: ${wait.question}`,
    requestedSchema: { type: "object", properties: { answer }, required: ["answer"] },
  };
}

/** Why the call may have run, as its card in the studio says. */
const MAY_HAVE_RUN: Record<Extract<Wait, { kind: "recovery" }>["why"], string> = {
  restarted: "was running when the studio stopped, so it may have run",
  timeout: "timed out, so it may have partly run",
};

/** The card's three choices: Run again, Mark as done with a result, Fail it. */
export function recoveryForm(wait: Extract<Wait, { kind: "recovery" }>, agentName: string): ElicitRequestFormParams {
  return {
    mode: "form",
    message:
      `The agent “${agentName}” called “${wait.title}” (${wait.operation}) with ${argsText(wait.args)}; the call ${MAY_HAVE_RUN[wait.why]}, ` +
      `and it is not run again unless someone says so. Run it again, mark it as done with the result it gave, or fail it?`,
    requestedSchema: {
      type: "object",
      properties: {
        action: {
          type: "string",
          title: "What happened",
          oneOf: [
            { const: "again", title: "Run again" },
            { const: "done", title: "Mark as done with a result" },
            { const: "fail", title: "Fail it" },
          ],
        },
        result: {
          type: "string",
          title: "Result",
          description: "With Mark as done: what the call answered, as the agent will read it (required). With Fail it: why (optional).",
          maxLength: 100_000,
        },
      },
      required: ["action"],
    },
  };
}

/** Where the run waits and how to go on, for a call answered before anyone decided. */
export function pendingSentence(wait: Wait | null, runId: string, runUrl: string, what: "call" | "agent"): string {
  const after = what === "call" ? "the call's result will be in the run once it goes on" : "the agent's reply will be in the run once it goes on";
  if (wait === null) return `The run waits in the studio at ${runUrl}; it keeps waiting, and ${after}.`;
  if (wait.kind === "recovery") {
    return (
      `“${wait.title}” (${wait.operation}) ${MAY_HAVE_RUN[wait.why]}: the run waits for a person to say what happened. Run it again, ` +
      `mark it as done with its result, or fail it in the studio at ${runUrl}, or through the runs API (POST /api/v1/runs/${runId}/recoveries ` +
      `with callId “${wait.callId}”); the run keeps waiting, and ${after}.`
    );
  }
  if (wait.kind === "question") {
    return (
      `The run waits for an answer to “${wait.question}”. Answer it in the studio at ${runUrl}, or through the runs API ` +
      `(POST /api/v1/runs/${runId}/answers with callId “${wait.callId}”); the run keeps waiting, and ${after}.`
    );
  }
  return (
    `Approval is pending: “${wait.title}” (${wait.operation}) waits for a person to approve it before it runs. Approve or deny it ` +
    `in the studio at ${runUrl}, or through the runs API (POST /api/v1/runs/${runId}/decisions with callId “${wait.callId}”); ` +
    `the run keeps waiting, and ${after}.`
  );
}
