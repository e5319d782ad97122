// Calling a tool from a run (docs/rules.md, The loop around a call), through the real loop, the real tool host and the
// loopback model: name repair, damaged and invalid arguments, narrowing, the output cap, refusal against failure
// with their audit rows, images, progress and voice lines, and masking.
import fs from "node:fs";
import path from "node:path";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit } from "@/db/schema";
import { createSecret } from "@/server/secrets/store";
import { VOICE_TIMING } from "@/server/runtime/voice";
import { call, calls, text, toolMessages } from "@/tests/support/loopback-model";
import { dataOf, studio, type Studio } from "./setup";

const BOX = `"""Small tools the runtime's tests call."""

import json
import time
from pathlib import Path

from quiver import Context, Image, Refused, tool

LOG = Path(__file__).with_name("calls.log")


def _log(name: str, **args) -> None:
    with LOG.open("a") as f:
        f.write(json.dumps({"tool": name, **args}) + "\\n")


@tool
def echo(words: str) -> str:
    """Say the words back.

    Args:
        words: What to say.
    """
    _log("echo", words=words)
    return words


@tool(risk="write")
def put(key: str, value: str) -> str:
    """Store a value under a key.

    Args:
        key: Where.
        value: What.
    """
    _log("put", key=key)
    return f"stored {key}"


@tool(risk="write")
def refuse(reason: str) -> str:
    """Decline, saying why.

    Args:
        reason: Why.
    """
    raise Refused(reason)


@tool(risk="write")
def crash(reason: str) -> str:
    """Fail with a ValueError.

    Args:
        reason: The message.
    """
    raise ValueError(reason)


@tool
def read_file(path: str) -> str:
    """One of two operations that differ only by formatting.

    Args:
        path: A path.
    """
    return "snake"


@tool
def readFile(path: str) -> str:
    """The other of the two.

    Args:
        path: A path.
    """
    return "camel"


@tool
def long(size: int) -> str:
    """Return a text of the given length.

    Args:
        size: How many characters.
    """
    return "".join(chr(97 + i % 26) for i in range(size))


@tool
def picture() -> list:
    """Answer a caption and a tiny picture."""
    return ["a red dot", Image(b"\\x89PNG\\r\\n\\x1a\\nfake-png-bytes", "image/png")]


@tool
def report(steps: int, ctx: Context) -> str:
    """Work in steps, saying each.

    Args:
        steps: How many.
    """
    for i in range(steps):
        ctx.progress(f"step {i + 1} of {steps}")
    return "reported"
`;

const OTHER = `"""Another file of the same tree."""


def wipe() -> str:
    """Delete everything."""
    from pathlib import Path
    Path(__file__).with_name("wiped").write_text("yes")
    return "wiped"
`;

const VOICE = `"""A SCHEMA-and-execute module with voice lines."""

import asyncio

SCHEMA = {
    "type": "function",
    "name": "slow_fetch",
    "description": "Fetch slowly, or fail when asked to.",
    "parameters": {
        "type": "object",
        "properties": {"seconds": {"type": "number"}, "fail": {"type": "boolean"}},
        "required": [],
    },
}
RISK = "network"
ANNOUNCE = "Let me pull that up..."
HEARTBEAT = ["Still fetching...", "Almost there..."]
COMPLETE = "Here it is:"
FAIL = "It didn't answer just now."


async def execute(args, ctx):
    await asyncio.sleep(args.get("seconds", 0))
    if args.get("fail"):
        raise RuntimeError("upstream said 502")
    return "fetched"
`;

const SERVICE = `"""A service whose tool leaks its token on purpose."""

import base64

from quiver import Context, Secret


class Settings:
    """Credentials.

    Attributes:
        token: The service's token.
        region: Where the service runs.
    """

    token: Secret
    region: str = "eu-west-7"


def whoami(ctx: Context, settings: Settings) -> str:
    """Say who the service thinks we are."""
    ctx.progress("calling with " + base64.b64encode(settings.token.encode()).decode())
    return "token=" + settings.token + " b64=" + base64.b64encode(settings.token.encode()).decode()
`;

const TOKEN = "svc_live_9f8e7d6c5b4a";
let s: Studio;
let box: string;

const log = () => {
  const file = path.join(s.tree, "calls.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { tool: string }) : [];
};

beforeAll(async () => {
  s = await studio("dispatch", { "box.py": BOX, "other.py": OTHER, "voice.py": VOICE, "service.py": SERVICE });
  await createSecret(s.database.db, "admin", { name: "SERVICE_TOKEN", value: TOKEN });
  box = await s.agent({ tools: [{ entry: "tools/box.py" }] });
});
beforeEach(() => s.model.reset());
afterAll(async () => s?.close());

/** The results in the order the model made the calls (events come in the order calls finish). */
function inCallOrder(events: Awaited<ReturnType<Studio["events"]>>) {
  const results = dataOf(events, "tool_result");
  return dataOf(events, "tool_call").map((c) => results.find((r) => r.callId === c.callId)!);
}

/** The one tool result of a run that made one call. */
async function onlyResult(runId: string) {
  return dataOf(await s.events(runId), "tool_result")[0]!;
}

describe("name repair", () => {
  it("repairs a name that differs only by formatting when exactly one operation matches", async () => {
    s.model.reply(
      calls(
        { name: "functions.box__echo", arguments: { words: "a" } },
        { name: "BOX__ECHO", arguments: { words: "b" } },
        { name: "box.echo", arguments: { words: "c" } },
        { name: "default_api:boxEcho", arguments: { words: "d" } },
        { name: "box echo", arguments: { words: "e" } },
      ),
      text("done"),
    );
    const events = await s.events(await s.run(box));
    expect(dataOf(events, "tool_call").map((c) => [c.operation, c.repaired])).toEqual(Array(5).fill(["box__echo", true]));
    expect(inCallOrder(events).map((r) => [r.outcome, r.text])).toEqual(["a", "b", "c", "d", "e"].map((w) => ["ok", w]));
  });

  it("never dispatches a misspelt name, answering up to three close names and the tools available", async () => {
    fs.rmSync(path.join(s.tree, "calls.log"), { force: true });
    s.model.reply(call("box__ecko", { words: "x" }), text("done"));
    const result = await onlyResult(await s.run(box));
    expect(result.outcome).toBe("refused");
    expect(result.text).toContain("There is no tool named “box__ecko”");
    expect(result.text).toContain("Did you mean box__echo?");
    expect(result.text).toContain("Call one of your tools by its exact name: box__echo, box__put");
    expect(log()).toEqual([]);
  });

  it("R-alias-several: never dispatches a name that two operations match once formatting is set aside, and names both", async () => {
    s.model.reply(call("Box-Read-File", { path: "x" }), text("done"));
    const result = await onlyResult(await s.run(box));
    expect(result).toMatchObject({ outcome: "refused", attempts: 0 });
    expect(result.text).toBe("“Box-Read-File” matches 2 of your tools once case and separators are set aside: box__read_file and box__readFile, so nothing ran. Call the one you mean by its exact name.");
  });
});

describe("arguments", () => {
  it("answers malformed argument JSON with the parse error, without running the tool", async () => {
    fs.rmSync(path.join(s.tree, "calls.log"), { force: true });
    s.model.reply(call("box__echo", '{"words": hi}'), text("done"));
    const runId = await s.run(box);
    const result = await onlyResult(runId);
    expect(result).toMatchObject({ outcome: "refused", attempts: 0 });
    expect(result.text).toMatch(/^The arguments of box__echo are not valid JSON \(.+\), so it did not run; send the call again/);
    expect(log()).toEqual([]);
    // The model is told, and the transcript it is sent is one a provider accepts.
    const told = toolMessages(s.model.requests.at(-1)!);
    expect(told[0]!.content).toContain("not valid JSON");
    expect(s.model.requests.at(-1)!.body.messages.find((m) => m.tool_calls)!.tool_calls![0]!.function.arguments).toBe("{}");
  });

  it("answers cut-off arguments with an error the model can correct, without running the tool", async () => {
    s.model.reply({ toolCalls: [{ name: "box__put", arguments: '{"key": "report.md", "value": "# Report\\nThe first line and then' }], finish: "length" }, text("done"));
    const result = await onlyResult(await s.run(box));
    expect(result).toMatchObject({ outcome: "refused", attempts: 0 });
    expect(result.text).toMatch(/^The arguments of box__put were cut off after \d+ characters \(they end at “…/);
    expect(result.text).toContain("send the call again with the whole JSON object");
    expect(log().filter((l) => l.tool === "put")).toEqual([]);
  });

  it("checks arguments against the schema before the tool runs, naming the field", async () => {
    fs.rmSync(path.join(s.tree, "calls.log"), { force: true });
    s.model.reply(calls({ name: "box__echo", arguments: { words: 5 } }, { name: "box__echo", arguments: {} }), text("done"));
    const results = inCallOrder(await s.events(await s.run(box)));
    expect(results.map((r) => r.text)).toEqual([
      "`words` of box__echo must be string; nothing ran, so call it again with that fixed.",
      "box__echo needs the argument `words`; nothing ran, so call it again with it.",
    ]);
    expect(log()).toEqual([]);
    expect(results.every((r) => r.outcome === "refused" && r.attempts === 0)).toBe(true);
  });
});

describe("narrowing", () => {
  it("refuses a call to an operation the entry did not narrow to, or to another file of the tree, never running it", async () => {
    fs.rmSync(path.join(s.tree, "calls.log"), { force: true });
    const narrow = await s.agent({ tools: [{ entry: "tools/box.py#box__echo" }] });
    s.model.reply(calls({ name: "box__put", arguments: { key: "k", value: "v" } }, { name: "other__wipe", arguments: {} }), text("done"));
    const runId = await s.run(narrow);
    expect(s.model.requests.at(-2)!.body.tools!.map((t) => t.function.name)).toEqual(["box__echo"]);
    const results = inCallOrder(await s.events(runId));
    expect(results.map((r) => r.outcome)).toEqual(["refused", "refused"]);
    expect(results[0]!.text).toBe("box__put is not one of this agent's tools, so it was refused and did not run. Your tools are: box__echo.");
    expect(results[1]!.text).toContain("other__wipe is not one of this agent's tools");
    expect(log()).toEqual([]);
    expect(fs.existsSync(path.join(s.tree, "wiped"))).toBe(false);
  });
});

describe("results", () => {
  it("cuts a result over the output cap with its note, keeping it whole in a file (R-result-output-cap)", async () => {
    const capped = await s.agent({ tools: [{ entry: "tools/box.py#box__long" }], policy: { output_cap: 1_000 } });
    s.model.reply(call("box__long", { size: 5_000 }), text("done"));
    const result = await onlyResult(await s.run(capped));
    const whole = "".split("").concat(Array.from({ length: 5_000 }, (_, i) => String.fromCharCode(97 + (i % 26)))).join("");
    expect(result.truncated).toMatch(/^\.results\/[0-9a-f-]{36}\/tool-[0-9a-f-]{36}\.txt$/);
    expect(result.text.startsWith(whole.slice(0, 200))).toBe(true);
    expect(result.text.endsWith(whole.slice(-50))).toBe(true);
    expect(result.text).toContain(`[... 4,750 characters left out here: the result was 5,000 characters long. The whole of it is in ${result.truncated}`);
    expect(fs.readFileSync(path.join(s.dataDir, "workspace", result.truncated!), "utf8")).toBe(whole);
    expect(toolMessages(s.model.requests.at(-1)!)[0]!.content).toBe(result.text);
  });

  it("tells refusal from failure: the outcome on each result, tool.executed rows for actions that ran, none for reads or refusals", async () => {
    s.model.reply(
      calls(
        { name: "box__put", arguments: { key: "k", value: "v" } },
        { name: "box__crash", arguments: { reason: "the disk is on fire" } },
        { name: "box__refuse", arguments: { reason: "that key is not mine to change" } },
        { name: "box__echo", arguments: { words: "w" } },
      ),
      text("done"),
    );
    const runId = await s.run(box);
    const results = inCallOrder(await s.events(runId));
    expect(results.map((r) => [r.outcome, r.text])).toEqual([
      ["ok", "stored k"],
      ["failed", "ValueError: the disk is on fire"],
      ["refused", "Refused: that key is not mine to change"],
      ["ok", "w"],
    ]);
    const rows = await s.database.db.select().from(audit).where(like(audit.action, "tool.executed%"));
    const mine = rows.filter((r) => (r.detail as { run?: string }).run === runId);
    expect(mine.map((r) => [r.action, r.target]).sort()).toEqual([
      ["tool.executed", "box__put"],
      ["tool.executed:failed", "box__crash"],
    ]);
    expect(mine.every((r) => r.actor === "user-ann")).toBe(true);
    // The model is told which results are errors.
    const failedMessage = toolMessages(s.model.requests.at(-1)!)[1]!;
    expect(failedMessage.content).toBe("ValueError: the disk is on fire");
  });

  it("passes a tool's images to the model as image content", async () => {
    s.model.reply(call("box__picture"), text("a red dot, I see"));
    const runId = await s.run(box);
    const result = await onlyResult(runId);
    expect(result.images).toEqual([{ mimeType: "image/png", data: Buffer.from("\x89PNG\r\n\x1a\nfake-png-bytes", "latin1").toString("base64") }]);
    const sent = s.model.requests.at(-1)!.body.messages;
    const tool = sent.find((m) => m.role === "tool")!;
    expect(tool.content).toBe("a red dot\n[1 image, attached below]");
    const after = sent[sent.indexOf(tool) + 1]!;
    expect(after.role).toBe("user");
    expect(JSON.stringify(after.content)).toContain(`"image_url":{"url":"data:image/png;base64,${result.images[0]!.data}"}`);
  });

  it("streams a tool's progress lines as progress events", async () => {
    s.model.reply(call("box__report", { steps: 3 }), text("done"));
    const runId = await s.run(box);
    const progress = dataOf(await s.events(runId), "progress");
    expect(progress.map((p) => [p.kind, p.message])).toEqual([
      ["progress", "step 1 of 3"],
      ["progress", "step 2 of 3"],
      ["progress", "step 3 of 3"],
    ]);
  });
});

describe("voice lines", () => {
  it("says ANNOUNCE once before the call, HEARTBEAT while it runs (first, then every interval, the last repeating), COMPLETE after", async () => {
    expect(VOICE_TIMING).toEqual({ firstMs: 9_000, everyMs: 21_000 });
    const agent = await s.agent({ tools: [{ entry: "tools/voice.py" }] });
    // Test timings: the first heartbeat at 300 ms, then every 400 ms.
    s.model.reply(call("slow_fetch", { seconds: 1.4 }), text("done"));
    const events = await s.events(await s.run(agent));
    const order = events.filter((e) => ["progress", "tool_started", "tool_result"].includes(e.type)).map((e) => (e.type === "progress" ? `${(e.data as { kind: string }).kind}: ${(e.data as { message: string }).message}` : e.type));
    expect(order.slice(0, 4)).toEqual(["announce: Let me pull that up...", "tool_started", "heartbeat: Still fetching...", "heartbeat: Almost there..."]);
    expect(order.slice(-2)).toEqual(["complete: Here it is:", "tool_result"]);
    // The last line repeats once the list runs out: 1.4 s of work holds three or four beats at 300 ms + 400 ms each.
    expect(order.slice(4, -2).every((line) => line === "heartbeat: Almost there...")).toBe(true);
    expect(order.filter((line) => line.startsWith("heartbeat")).length).toBeGreaterThanOrEqual(3);
  });

  it("says FAIL after a failure, and neither COMPLETE nor FAIL after a refusal", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/voice.py" }] });
    s.model.reply(call("slow_fetch", { fail: true }), call("slow_fetch", { seconds: "soon" }), text("done"));
    const events = await s.events(await s.run(agent));
    expect(dataOf(events, "tool_result").map((r) => r.outcome)).toEqual(["failed", "refused"]);
    expect(dataOf(events, "progress").map((p) => p.kind)).toEqual(["announce", "fail"]);
  });
});

describe("secrets", () => {
  it("injects settings only at dispatch and masks every secret value in stored events and in what reaches the model", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/service.py", settings: { token: "${SERVICE_TOKEN}", region: "mars-north-1" } }] });
    s.model.reply(call("service__whoami"), text("done"));
    const runId = await s.run(agent);
    const events = await s.events(runId);
    const b64 = Buffer.from(TOKEN).toString("base64");
    const stored = JSON.stringify(events);
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain(b64);
    expect(dataOf(events, "tool_result")[0]!.text).toBe("token=*** b64=***");
    expect(dataOf(events, "progress")[0]!.message).toBe("calling with ***");
    for (const request of s.model.requests) {
      expect(request.raw).not.toContain(TOKEN);
      expect(request.raw).not.toContain(b64);
      expect(request.raw).not.toContain("mars-north-1");
      expect(request.raw).not.toContain("SERVICE_TOKEN");
    }
    const used = await s.database.db.select().from(audit).where(eq(audit.action, "secret.used"));
    expect(used.some((r) => r.target === "SERVICE_TOKEN" && (r.detail as { via: string }).via === "run")).toBe(true);
  });
});
