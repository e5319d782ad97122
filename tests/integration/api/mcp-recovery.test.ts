// A call that may have run, settled through the MCP endpoint (R-journal-manual, R-api-mcp-elicit): a manual tool that
// times out stops its run waiting (R-journal-timeout), and an elicitation-capable client with a key that may decide
// is asked Run again / Mark as done with a result / Fail it, with the official MCP SDK client over real HTTP; a
// client that cannot be asked is told where the run waits and how to settle it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallToolResult, ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/client";
import { call as modelCall, text } from "@/tests/support/loopback-model";
import { call, type RunView } from "./runs-studio";
import { mcpStudio, type McpStudio } from "./mcp-studio";
import { SLOW_LEDGER as LEDGER } from "@/tests/support/slow-ledger";

let s: McpStudio;
let agent: string;
let key: { value: string };

beforeAll(async () => {
  s = await mcpStudio("api-mcp-recovery", { "ledger.py": LEDGER });
  agent = await s.api.agent("Ledger Keeper", [{ entry: "tools/ledger.py" }]);
  key = await s.key({ name: "ide" });
}, 120_000);
beforeEach(() => s.api.model.reset());
afterAll(async () => s?.close());

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
const runOf = (result: CallToolResult) => (result._meta?.["quiver/run"] as { id: string }).id;
const getRun = async (runId: string) => (await call<RunView>(`${s.api.url}/api/v1/runs/${runId}`, { key: key.value })).json!;

/** A client whose person answers each elicitation in turn, keeping what they were asked. */
async function asking(value: string, ...replies: ElicitResult[]) {
  const asked: ElicitRequestFormParams[] = [];
  const { client } = await s.connect(agent, value, (params) => {
    asked.push(params);
    return replies[Math.min(asked.length - 1, replies.length - 1)]!;
  });
  const callTool = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, { timeout: 30_000 })) as CallToolResult;
  return { asked, callTool };
}

describe("a call that may have run, through the MCP endpoint", () => {
  it("R-journal-manual: asks the client's person, and Mark as done answers the call with the result they gave", async () => {
    const { asked, callTool } = await asking(key.value, { action: "accept", content: { action: "done", result: "Entry 17 was posted." } });
    const result = await callTool("ledger__post", { seconds: 2 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("Entry 17 was posted.");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toMatch(/“Ledger Keeper” called “.+” \(ledger__post\) with \{"seconds":2\}; the call timed out, so it may have partly run/);
    expect(asked[0]!.requestedSchema.properties.action).toMatchObject({ oneOf: [{ const: "again" }, { const: "done" }, { const: "fail" }] });
    const run = await getRun(runOf(result));
    expect(run.status).toBe("done");
    expect(run.calls[0]).toMatchObject({ result: { outcome: "ok", text: "Entry 17 was posted." } });
  });

  it("R-journal-timeout: Run again runs it once more and asks anew when it times out again; Fail it answers the agent so", async () => {
    s.api.model.reply(modelCall("ledger__post", { seconds: 2 }), text("The ledger is down, so nothing was posted."));
    const { asked, callTool } = await asking(
      key.value,
      { action: "accept", content: { action: "again" } },
      { action: "accept", content: { action: "fail", result: "the ledger is down" } },
    );
    const result = await callTool("ask_ledger_keeper", { message: "Post the entry." });
    expect(textOf(result)).toBe("The ledger is down, so nothing was posted.");
    expect(asked).toHaveLength(2);
    const run = await getRun(runOf(result));
    expect(run.status).toBe("done");
    expect(run.calls[0]).toMatchObject({ result: { outcome: "failed", text: expect.stringContaining("the ledger is down") } });
    expect(JSON.stringify(s.api.model.requests.at(-1)!.body.messages)).toContain("the ledger is down");
  });

  it("R-api-mcp-elicit: Mark as done without a result leaves the call to the studio, which the answer names with the recoveries route", async () => {
    const short = await s.key({ name: "short wait", waitLimitS: 3 });
    const { asked, callTool } = await asking(short.value, { action: "accept", content: { action: "done" } });
    const result = await callTool("ledger__post", { seconds: 2 });
    expect(asked).toHaveLength(1);
    expect(result.isError).toBe(true);
    const runId = runOf(result);
    expect(textOf(result)).toMatch(/^“.+” \(ledger__post\) timed out, so it may have partly run: the run waits for a person/);
    expect(textOf(result)).toContain(`POST /api/v1/runs/${runId}/recoveries`);
    expect((await getRun(runId)).waiting.recoveries).toEqual([expect.objectContaining({ operation: "ledger__post", why: "timeout" })]);
  });
});
