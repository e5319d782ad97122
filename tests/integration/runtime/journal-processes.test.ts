// The journal of steps across a takeover, with real studio processes on PostgreSQL (DATABASE_URL): a worker killed
// with SIGKILL while a call is in flight loses the run to the other, which replays the journal and goes on by the
// call's replay policy (R-journal-replay): a `manual` call waits for the person, who may run it again, mark it done
// or fail it (R-journal-manual); an `idempotent` one runs again under the same key (R-journal-idempotent); a `safe`
// one runs again. Skipped where no PostgreSQL is given; everything made there is removed after. Each test has a queue,
// model and processes of its own. They mostly wait for a lease to lapse, so two chains of two run side by side, each
// one test after another: four workers alive at once, not the score that did not all get ready in time on a 2-core
// machine (processes.test.ts).
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, it, type ExpectStatic } from "vitest";
import { parseEnv } from "@/server/env";
import { LEASE_SECONDS } from "@/server/runtime";
import { call, text } from "@/tests/support/loopback-model";
import { openQueueFile, ready, type QueueFile, type QueueStudio } from "@/tests/support/queue-studio";

const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;

/** Each tool appends a line to `path` (its effect), then waits while `hold` exists (at most 40 s). */
const wait = `\n\ndef _hold(hold: str) -> None:\n    for _ in range(400):\n        if not os.path.exists(hold):\n            return\n        time.sleep(0.1)\n`;
const LEDGER = `"""Writes to a ledger."""\n\nimport os\nimport time\n${wait}\n\ndef append(path: str, hold: str) -> str:\n    """Append a line.\n\n    Args:\n        path: The ledger.\n        hold: Wait while it exists.\n    """\n    with open(path, "a") as f:\n        f.write("line\\n")\n    _hold(hold)\n    return "appended"\n`;
const TALLY = `"""Counts, safely."""\n\nimport os\nimport time\nfrom quiver import tool\n${wait}\n\n@tool(replay="safe")\ndef count(path: str, hold: str) -> str:\n    """Count once more.\n\n    Args:\n        path: The tally.\n        hold: Wait while it exists.\n    """\n    with open(path, "a") as f:\n        f.write("tick\\n")\n    _hold(hold)\n    return "counted"\n`;
const PAYMENTS = `"""Pays, once per key."""\n\nimport os\nimport time\nfrom quiver import Context, tool\n${wait}\n\n@tool(replay="idempotent")\ndef pay(path: str, hold: str, ctx: Context) -> str:\n    """Pay once for this call, however often it is made.\n\n    Args:\n        path: The payments file.\n        hold: Wait while it exists.\n    """\n    with open(path + ".calls", "a") as f:\n        f.write(str(ctx.idempotency_key) + "\\n")\n    seen = open(path).read().split() if os.path.exists(path) else []\n    if ctx.idempotency_key not in seen:\n        with open(path, "a") as f:\n            f.write(str(ctx.idempotency_key) + "\\n")\n    _hold(hold)\n    return "paid"\n`;

const linesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

describe.skipIf(!databaseUrl)("the journal of steps across a takeover, on PostgreSQL", () => {
  let file: QueueFile;

  /** Starts a run of `name` on the test's own queue, kills its holder mid-call, and waits for the other to take it. */
  async function killMidCall(expect: ExpectStatic, s: QueueStudio, entry: string, name: string, reply: string) {
    const pair = [s.spawnWorker(), s.spawnWorker()];
    await Promise.all(pair.map((w) => ready(expect, w)));
    // Inside the tree: the only folder a tool host's sandbox lets a tool write to besides its work folder.
    const effect = path.join(file.tree, ".effects", `${randomUUID()}.txt`);
    const hold = `${effect}.hold`;
    fs.writeFileSync(hold, "");
    s.model.reply(call(name, { path: effect, hold }), text(reply));
    const { runId } = await s.web.start({ agentId: await s.agent([{ entry }]), message: "Go.", user: file.person });
    await expect.poll(() => linesOf(effect).length + linesOf(`${effect}.calls`).length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    // The call's start is stored (its tool_started and its journal row are one statement): a read-only call is
    // dispatched before they are (R-journal-safe-at-once), and a kill before then leaves a call that never started.
    await expect.poll(async () => (await s.events(runId)).some((e) => e.type === "tool_started"), { timeout: 10_000, interval: 50 }).toBe(true);
    await expect.poll(() => pair.filter((w) => w.live.has(runId)).length, { timeout: 20_000, interval: 50 }).toBe(1);
    const holder = pair.find((w) => w.live.has(runId))!;
    const other = pair.find((w) => w !== holder)!;
    holder.child.kill("SIGKILL");
    await holder.exited;
    fs.rmSync(hold);
    await expect.poll(() => other.live.has(runId), { timeout: (LEASE_SECONDS + 15) * 1000, interval: 50 }).toBe(true);
    return { runId, effect, other };
  }
  const recoveryOf = async (expect: ExpectStatic, s: QueueStudio, runId: string) => {
    await expect.poll(async () => (await s.events(runId)).some((e) => e.type === "recovery_requested"), { timeout: 20_000, interval: 100 }).toBe(true);
    return (await s.events(runId)).find((e) => e.type === "recovery_requested")!.data;
  };

  beforeAll(async () => {
    file = await openQueueFile(databaseUrl!, "journal", { "ledger.py": LEDGER, "tally.py": TALLY, "payments.py": PAYMENTS }, [".effects"]);
  }, 60_000);
  afterAll(async () => file?.close());

  // `concurrent` on the two chains runs them side by side; `concurrent: false` on their tests keeps each chain in order.
  describe("a manual call", { concurrent: true }, () => {
    it("R-journal-manual: a manual call in flight at a takeover waits for the person, having run once; Run again runs it once more", { concurrent: false, timeout: 120_000 }, async ({ expect }) => {
      const s = await file.open("test-journal-again");
      try {
        const { runId, effect, other } = await killMidCall(expect, s, "tools/ledger.py", "ledger__append", "Appended after the takeover.");
        const card = await recoveryOf(expect, s, runId);
        expect(card).toMatchObject({ operation: "ledger__append", why: "restarted", round: 1 });
        await expect.poll(() => s.status(runId), { timeout: 10_000 }).toBe("waiting");
        expect(linesOf(effect)).toHaveLength(1);
        await s.web.recover(runId, String(card.callId), "again", file.person);
        await expect.poll(() => s.status(runId), { timeout: 30_000 }).toBe("done");
        expect(linesOf(effect)).toHaveLength(2);
        const results = (await s.events(runId)).filter((e) => e.type === "tool_result");
        expect(results.map((e) => e.data)).toEqual([expect.objectContaining({ outcome: "ok", text: "appended" })]);
        other.child.kill("SIGTERM");
        await other.exited;
      } finally {
        await s.close();
      }
    });

    it("R-journal-manual: Mark as done answers the model the person's result, and the call is not run again", { concurrent: false, timeout: 120_000 }, async ({ expect }) => {
      const s = await file.open("test-journal-done");
      try {
        const { runId, effect, other } = await killMidCall(expect, s, "tools/ledger.py", "ledger__append", "Carrying on.");
        const card = await recoveryOf(expect, s, runId);
        await s.web.recover(runId, String(card.callId), "done", file.person, "It ran: one line was appended.");
        await expect.poll(() => s.status(runId), { timeout: 30_000 }).toBe("done");
        expect(linesOf(effect)).toHaveLength(1);
        const all = await s.events(runId);
        expect(all.filter((e) => e.type === "tool_result").map((e) => e.data)).toEqual([expect.objectContaining({ outcome: "ok", text: "It ran: one line was appended." })]);
        expect(all.filter((e) => e.type === "recovery_decided").map((e) => e.data)).toEqual([expect.objectContaining({ action: "done", by: file.person })]);
        // A second word on the same round is refused: it was settled.
        await expect(s.web.recover(runId, String(card.callId), "again", file.person)).rejects.toThrow();
        other.child.kill("SIGTERM");
        await other.exited;
      } finally {
        await s.close();
      }
    });

  });

  describe("a call that may run again", { concurrent: true }, () => {
    it("R-journal-idempotent: an idempotent call in flight at a takeover runs again with the same key, so its effect applies once", { concurrent: false, timeout: 120_000 }, async ({ expect }) => {
      const s = await file.open("test-journal-idempotent");
      try {
        const { runId, effect, other } = await killMidCall(expect, s, "tools/payments.py", "payments__pay", "Paid.");
        await expect.poll(() => s.status(runId), { timeout: 30_000 }).toBe("done");
        const calls = linesOf(`${effect}.calls`);
        expect(calls).toHaveLength(2);
        expect(calls[0]).toMatch(/^[0-9a-f]{32}$/);
        expect(calls[1]).toBe(calls[0]);
        expect(linesOf(effect)).toEqual([calls[0]]);
        expect((await s.events(runId)).some((e) => e.type === "recovery_requested")).toBe(false);
        other.child.kill("SIGTERM");
        await other.exited;
      } finally {
        await s.close();
      }
    });

    it("R-journal-replay: a safe call in flight at a takeover is run again, and the run goes on without asking", { concurrent: false, timeout: 120_000 }, async ({ expect }) => {
      const s = await file.open("test-journal-safe");
      try {
        const { runId, effect, other } = await killMidCall(expect, s, "tools/tally.py", "tally__count", "Counted.");
        await expect.poll(() => s.status(runId), { timeout: 30_000 }).toBe("done");
        expect(linesOf(effect)).toHaveLength(2);
        const all = await s.events(runId);
        expect(all.filter((e) => e.type === "tool_result").map((e) => e.data)).toEqual([expect.objectContaining({ outcome: "ok", text: "counted" })]);
        other.child.kill("SIGTERM");
        await other.exited;
      } finally {
        await s.close();
      }
    });
  });
});
