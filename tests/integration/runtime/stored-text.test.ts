// Text PostgreSQL cannot hold, from the model or a tool, through the real loop, tool host and loopback model
// (R-args-nul): a NUL or half a surrogate pair in a call's arguments is a correctable refusal, never the end of the
// run; what the model sent and what a tool answered is stored escaped and read back whole, and the trace shows it.
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { listAudit } from "@/server/audit/list";
import { call, text, toolMessages } from "@/tests/support/loopback-model";
import { dataOf, settled, studio, type Studio } from "./setup";

const BOX = `"""Tools that write down what they were called with."""

import json
from pathlib import Path

from quiver import tool

LOG = Path(__file__).with_name("calls.log")


@tool
def echo(words: str) -> str:
    """Say the words back.

    Args:
        words: What to say.
    """
    with LOG.open("a") as f:
        f.write(json.dumps({"tool": "echo", "words": words}) + "\\n")
    return words


@tool(risk="write")
def garble(words: str) -> str:
    """Fail with the words and a NUL in the message.

    Args:
        words: What to fail with.
    """
    raise ValueError(words + "\\x00" + "\\ud800")
`;

let s: Studio;
let box: string;

const calls = () => {
  const file = path.join(s.tree, "calls.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
};

beforeAll(async () => {
  s = await studio("nul", { "box.py": BOX });
  box = await s.agent({ tools: [{ entry: "tools/box.py" }] });
});
beforeEach(() => {
  s.model.reset();
  fs.rmSync(path.join(s.tree, "calls.log"), { force: true });
});
afterAll(async () => s?.close());

describe("a NUL in a call's arguments", () => {
  it("answers the model a correctable refusal, runs nothing, and the run goes on to its end", async () => {
    s.model.reply(call("box__echo", '{"words": "a\\u0000b"}'), text("sorry"));
    const runId = await s.run(box);
    expect((await settled(s, runId)).status).toBe("done");
    const [result] = dataOf(await s.events(runId), "tool_result");
    expect(result).toMatchObject({ outcome: "refused", attempts: 0 });
    expect(result!.text).toBe(
      "`words` of box__echo contains a NUL character (U+0000) at character 2, so it did not run; remove it and send the call again.",
    );
    expect(calls()).toEqual([]);
    expect(toolMessages(s.model.requests.at(-1)!)[0]!.content).toContain("NUL character");
  });

  it("stores the arguments as the model sent them, escaped, and reads them back whole for the trace", async () => {
    s.model.reply(call("box__echo", '{"words": "a\\u0000b\\ud800"}'), text("sorry"));
    const runId = await s.run(box);
    const events = await s.events(runId);
    expect(dataOf(events, "tool_call")[0]!.args).toEqual({ words: "a\u0000b\ud800" });
    expect(dataOf(events, "message").find((m) => m.role === "assistant")!.calls[0]!.input).toBe('{"words": "a\\u0000b\\ud800"}');
    // The stored row holds no NUL (PostgreSQL cannot), and its escape reads back to what was sent.
    const rows = await s.database.db.execute(sql`select data::text as data from run_events where run_id = ${runId} and type = 'tool_call'`);
    const stored = (rows as unknown as { rows: { data: string }[] }).rows[0]!.data;
    expect(stored).not.toContain("\\u0000");
  });

  it("keeps a raw NUL the provider passed inside the argument text, and the model's own text with one", async () => {
    s.model.reply(call("box__echo", '{"words": "a\u0000b"}'), text("done\u0000 and dusted"));
    const runId = await s.run(box);
    expect((await settled(s, runId)).status).toBe("done");
    const messages = dataOf(await s.events(runId), "message").filter((m) => m.role === "assistant");
    expect(messages[0]!.calls[0]!.input).toBe('{"words": "a\u0000b"}');
    expect(messages.at(-1)!.text).toBe("done\u0000 and dusted");
    expect(calls()).toEqual([]);
  });

  it("stores a tool's failure text with a NUL in it, and its audit row, instead of ending the run", async () => {
    s.model.reply(call("box__garble", { words: "boom" }), text("noted"));
    const runId = await s.run(box);
    expect((await settled(s, runId)).status).toBe("done");
    const [result] = dataOf(await s.events(runId), "tool_result");
    expect(result!.outcome).toBe("failed");
    expect(result!.text).toContain("boom\u0000");
    const rows = await listAudit(s.database.db, { action: "tool.executed:failed", limit: 10 });
    expect(rows.some((row) => String((row.detail as { error?: string }).error).includes("boom\u0000"))).toBe(true);
  });
});

describe("a write the database refuses", () => {
  it("ends the run with an error id, never the SQL or its parameters, and the log has the details", async () => {
    await s.database.db.execute(sql`
      create or replace function refuse_poison() returns trigger language plpgsql as $$
      begin
        if new.data::text like '%poison%' then raise exception 'refused a poisoned row'; end if;
        return new;
      end $$`);
    await s.database.db.execute(sql`create trigger refuse_poison before insert on run_events for each row execute function refuse_poison()`);
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      s.model.reply(call("box__echo", { words: "poison" }), text("never read"));
      const run = await settled(s, await s.run(box));
      expect(run.status).toBe("failed");
      expect(run.error).toMatch(/^The run could not be stored; error id ([0-9a-f]{12}); the server log has the details\.$/);
      const id = run.error!.match(/error id ([0-9a-f]{12})/)![1]!;
      await vi.waitFor(() => expect(spy.mock.calls.some((c) => String(c[0]).includes(id))).toBe(true));
      const line = String(spy.mock.calls.find((c) => String(c[0]).includes(id))![0]);
      expect(line).toMatch(/Failed query: (WITH .* )?INSERT INTO run_events/);
      expect(line).toContain("refused a poisoned row");
      expect(line).not.toContain("params");
    } finally {
      spy.mockRestore();
      await s.database.db.execute(sql`drop trigger refuse_poison on run_events`);
    }
  });
});
