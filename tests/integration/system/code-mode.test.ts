// Code mode over every source (docs/rules.md, Code mode), through a real run: the loopback model writes one compute_exec program, and
// the program calls a built-in, a tree tool and a reference MCP server's tool from quiver.sources, each call back through
// the studio (its own nested card, the agent's narrowing and permissions, the call hook, the audit row, masking), and
// reads INDEX.md, which the agent's file tools read too.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit } from "@/db/schema";
import { McpPool } from "@/server/mcp/pool";
import { createServer } from "@/server/mcp/registry";
import { createSecret } from "@/server/secrets/store";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { call, text, type RecordedRequest } from "@/tests/support/loopback-model";
import { EVERYTHING } from "../mcp/helpers";
import { ANN, dataOf, settled, sleep, studio, waitForEvent, type Studio } from "../runtime/setup";

const NOTES = `"""Notes kept in the tree's work folder, one per subject."""

from quiver import Secret, tool


class Settings:
    """Where the notes go.

    Attributes:
        token: The notes service's token.
    """

    token: Secret


@tool(risk="write")
def add(subject: str, body: str, loud: bool = False) -> str:
    """Keep one note under a subject.

    Args:
        subject: What the note is about.
        body: The note itself.
        loud: Shout it.
    """
    return f"kept {subject}: {body.upper() if loud else body}"


@tool
def token(settings: Settings) -> str:
    """Say the token out loud, which the studio must mask."""
    return "the token is " + settings.token
`;

const TOKEN = "notes_live_7c1d9e2b44";
const mcpData = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-code-mode-"));
const pool = new McpPool({ dataDir: mcpData, connectTimeoutMs: 15_000 });
let s: Studio;
let everything: string;
let hookFile: string;

const root = () => path.join(workspaceDir(s.dataDir), "desk");
const writeHook = (source: string) => {
  fs.mkdirSync(path.dirname(hookFile), { recursive: true });
  fs.writeFileSync(hookFile, source);
  const later = new Date(Date.now() + 2_000 * Math.random() + 1_000);
  fs.utimesSync(hookFile, later, later);
};

/** An agent in code mode: compute_exec, Files narrowed to reading, the notes file and the MCP server's echo. */
async function coder(extra: { files?: string; memory?: Record<string, "ASK" | "ALLOW" | "DENY"> } = {}) {
  return s.agent({
    tools: [
      { entry: "system:compute" },
      { entry: extra.files ?? "system:filesystem#read_file,list_directory", settings: { root: "desk" } },
      { entry: "system:memory#memory_set,memory_get", permissions: extra.memory ?? {} },
      { entry: "tools/notes.py", settings: { token: "${NOTES_TOKEN}" } },
      { entry: `${everything}#echo,get-sum` },
    ],
  });
}

/** Run one program as the model's one call; its result and every event of the run. */
async function program(agent: string, code: string, timeout?: number) {
  s.model.reply(call("compute_exec", { code, ...(timeout ? { timeout } : {}) }), text("done"));
  const runId = await s.run(agent);
  const events = await s.events(runId);
  const outer = dataOf(events, "tool_call").find((c) => c.operation === "compute_exec")!;
  return { runId, events, outer, result: dataOf(events, "tool_result").find((r) => r.callId === outer.callId)! };
}

beforeAll(async () => {
  s = await studio("code-mode", { "notes.py": NOTES }, { mcp: pool });
  hookFile = path.join(path.dirname(s.tree), "hooks", "tools.py");
  await createSecret(s.database.db, "admin", { name: "NOTES_TOKEN", value: TOKEN });
  everything = (await createServer(s.database.db, "admin-1", { name: "everything", transport: { type: "stdio", command: "node", args: [EVERYTHING, "stdio"] } })).id;
}, 30_000);
beforeEach(() => {
  s.model.reset();
  fs.rmSync(hookFile, { force: true });
});
afterAll(async () => {
  await s?.close();
  await pool.closeAll();
  fs.rmSync(mcpData, { recursive: true, force: true });
});

describe("quiver.sources in a compute_exec program", () => {
  it("R-code-import: one program calls a built-in, a tree tool and an MCP server's tool, each a nested call of its own", { timeout: 60_000 }, async () => {
    const agent = await coder();
    fs.mkdirSync(root(), { recursive: true });
    fs.writeFileSync(path.join(root(), "todo.txt"), "buy milk\n");
    const code = [
      "from quiver.sources.files import read_file",
      "from quiver.sources.notes import add",
      "from quiver.sources.everything import echo, get_sum",
      "from quiver.sources import memory",
      "from quiver.sources.everything import *",
      "print(read_file('todo.txt').strip())",
      "print(add('shop', body='milk', loud=True))",
      "print(echo(message='hi there'))",
      "print(get_sum(a=2, b=3))",
      "print(memory.memory_set(key='k', value='v'), '/', memory.memory_get(key='k'))",
    ].join("\n");
    const { result, events, outer } = await program(agent, code);
    expect(result.outcome).toBe("ok");
    expect(result.text).toContain("1\tbuy milk");
    expect(result.text).toContain("kept shop: MILK");
    expect(result.text).toContain("Echo: hi there");
    expect(result.text).toMatch(/The sum of 2 and 3 is 5/);
    const nested = dataOf(events, "tool_call").filter((c) => c.parent === outer.callId);
    expect(nested.map((c) => c.operation)).toEqual(["read_file", "notes__add", "echo", "get-sum", "memory_set", "memory_get"]);
    expect(nested[1]!.args).toEqual({ subject: "shop", body: "milk", loud: true });
    // The model made one call and reads one result: the program's calls are the program's business.
    expect(s.model.requests.at(-1)!.body.messages.filter((m) => m.role === "tool")).toHaveLength(1);
  });

  it("R-code-arguments: the leading required parameters go by position, the rest by keyword, omitted optionals are left out", { timeout: 30_000 }, async () => {
    const agent = await coder();
    const code = [
      "import inspect",
      "from quiver.sources.notes import add",
      "from quiver.sources.files import read_file",
      "print(inspect.signature(add))",
      "print(inspect.signature(read_file))",
      "print(add('a', 'b'))",
      "try:\n    add('a', 'b', True)\nexcept TypeError as exc:\n    print('TypeError:', exc)",
      "try:\n    add('a')\nexcept TypeError as exc:\n    print('TypeError:', exc)",
    ].join("\n");
    const { result } = await program(agent, code);
    expect(result.text.split("\n")).toEqual([
      "(subject: str, body: str, *, loud: bool = False) -> str",
      "(path: str, *, start_line: int = 1, max_lines: int | None = None) -> str",
      "kept a: b",
      "TypeError: add() takes 2 positional argument(s) (subject, body); pass the rest by keyword",
      "TypeError: add() is missing its required argument(s): body",
    ]);
  });

  it("R-code-refusal: an operation or source the agent was not given is refused, naming what it has", { timeout: 30_000 }, async () => {
    const agent = await coder();
    const code = [
      "import quiver",
      "for line in ['from quiver.sources.files import write_file', 'import quiver.sources.web', 'from quiver.sources import web']:",
      "    try:\n        exec(line)\n    except ImportError as exc:\n        print(type(exc).__name__, exc)",
      "import quiver.sources.files as files",
      "try:\n    files.call('write_file', path='x.txt', content='x')\nexcept quiver.Refused as exc:\n    print('Refused', exc)",
    ].join("\n");
    const { result, events, outer } = await program(agent, code);
    const lines = result.text.split("\n");
    expect(lines[0]).toBe("ImportError write_file of quiver.sources.files is not one of this agent's operations; it was given read_file, list_directory");
    const has = "it has quiver.sources.files, quiver.sources.memory, quiver.sources.notes, quiver.sources.everything";
    expect(lines[1]).toBe(`ModuleNotFoundError quiver.sources.web is not one of this agent's sources; ${has}`);
    expect(lines[2]).toBe(`ImportError quiver.sources.web is not one of this agent's sources; ${has}`);
    expect(lines[3]).toBe(
      `Refused quiver.sources.files.call("write_file") was refused and did not run: this agent was not given write_file of system:filesystem; it was given read_file, list_directory.`,
    );
    // The refused call is on the program's card like any other, and nothing ran.
    const nested = dataOf(events, "tool_call").filter((c) => c.parent === outer.callId);
    expect(nested).toHaveLength(1);
    expect(dataOf(events, "tool_result").find((r) => r.callId === nested[0]!.callId)).toMatchObject({ outcome: "refused" });
    expect(dataOf(events, "tool_started").filter((e) => e.operation === "write_file")).toEqual([]);
  });

  it("R-code-rules: the call hook sees each call by name with its arguments, and its refusal raises quiver.Refused", { timeout: 30_000 }, async () => {
    // In the tree, which the tool host (where the hook runs) may write even in its sandbox.
    const seen = path.join(s.tree, "hook-saw.jsonl");
    writeHook(
      [
        "import json",
        "from quiver import Refused",
        "",
        "def check(call):",
        `    with open(${JSON.stringify(seen)}, "a") as f:`,
        "        f.write(json.dumps({'name': call.name, 'arguments': call.arguments, 'source': call.source}) + '\\n')",
        "    if call.name == 'memory_set' and call.arguments.get('key') == 'secret':",
        "        raise Refused('No secrets in memory.')",
        "",
      ].join("\n"),
    );
    const agent = await coder();
    const code = [
      "import quiver",
      "from quiver.sources.memory import memory_set",
      "print(memory_set(key='plain', value='1'))",
      "try:\n    memory_set(key='secret', value='2')\nexcept quiver.Refused as exc:\n    print('Refused:', exc)",
    ].join("\n");
    const { result } = await program(agent, code);
    expect(result.outcome).toBe("ok");
    expect(result.text).toContain("Refused: memory_set was refused by the call hook (hooks/tools.py) and did not run: No secrets in memory.");
    const calls = fs.readFileSync(seen, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { name: string; arguments: Record<string, unknown>; source: string });
    expect(calls.filter((c) => c.name === "memory_set")).toEqual([
      { name: "memory_set", arguments: { key: "plain", value: "1" }, source: "system:memory" },
      { name: "memory_set", arguments: { key: "secret", value: "2" }, source: "system:memory" },
    ]);
  });

  it("R-code-rules: each call a program makes that is not read-only has its own audit row", { timeout: 30_000 }, async () => {
    const agent = await coder();
    const { runId } = await program(agent, "from quiver.sources.notes import add\nprint(add('audit', 'row'))");
    const rows = await s.database.db.select().from(audit).where(like(audit.action, "tool.executed%"));
    const mine = rows.filter((r) => (r.detail as { run?: string }).run === runId).map((r) => r.target).sort();
    expect(mine).toEqual(["compute_exec", "notes__add"]);
  });

  it("R-code-rules: a secret's value in a call's result reaches the program masked", { timeout: 30_000 }, async () => {
    const agent = await coder();
    const { result, events } = await program(agent, "from quiver.sources.notes import token\nt = token()\nprint(t, len(t))");
    expect(result.text).toBe(`the token is *** ${"the token is ***".length}`);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
  });

  it("R-code-clock: a call waiting on the person's approval does not count against the program's timeout", { timeout: 40_000 }, async () => {
    const agent = await coder({ memory: { memory_set: "ASK" } });
    s.model.reply(call("compute_exec", { code: "from quiver.sources.memory import memory_set\nprint(memory_set(key='tz', value='UTC'))", timeout: 1 }), text("done"));
    const { runId } = await s.runtime.start({ agentId: agent, message: "Go.", user: ANN });
    const asked = await waitForEvent(s.runtime, runId, "approval_requested");
    expect(asked).toMatchObject({ operation: "memory_set", args: { key: "tz", value: "UTC" } });
    await sleep(2_000);
    await s.runtime.decide(runId, asked.callId, "once", ANN);
    expect((await settled(s, runId)).status).toBe("done");
    const outer = dataOf(await s.events(runId), "tool_result").find((r) => r.operation === "compute_exec")!;
    expect(outer).toMatchObject({ outcome: "ok" });
  });
});

describe("the studio's other agents in a program", () => {
  it("R-code-names: specialists are one module, agents, whose ask_<agent> gives one its task and answers its reply", { timeout: 40_000 }, async () => {
    const helper = await s.agent({ name: "Helper", instructions: "You are helper.", tools: [{ entry: "system:memory#memory_get" }] });
    const asker = await s.agent({ name: "Asker", instructions: "You are asker.", tools: [{ entry: "system:compute" }, { entry: `agent:${helper}` }] });
    const who = (request: RecordedRequest) => {
      const system = request.body.messages.find((m) => m.role === "system")?.content;
      return typeof system === "string" && system.includes("You are helper.") ? "helper" : "asker";
    };
    let asked = false;
    s.model.fallback = (request) => {
      if (who(request) === "helper") return text(`forty-two, said to: ${String(request.body.messages.at(-1)?.content)}`);
      if (asked) return text("done");
      asked = true;
      return call("compute_exec", { code: "from quiver.sources.agents import ask_helper\nprint(ask_helper('What is six times seven?'))" });
    };
    const events = await s.events(await s.run(asker));
    const result = dataOf(events, "tool_result").find((r) => r.operation === "compute_exec")!;
    expect(result).toMatchObject({ outcome: "ok", text: "forty-two, said to: What is six times seven?" });
    const outer = dataOf(events, "tool_call").find((c) => c.operation === "compute_exec")!;
    expect(dataOf(events, "tool_call").filter((c) => c.parent === outer.callId).map((c) => c.operation)).toEqual(["ask_helper"]);
  });
});

describe("INDEX.md", () => {
  it("R-code-index: the agent's file tools read one INDEX.md per source from the run's first call, and the program reads the same", { timeout: 30_000 }, async () => {
    const agent = await coder();
    s.model.reply(
      call("read_file", { path: ".quiver/sources/INDEX.md" }),
      call("read_file", { path: ".quiver/sources/notes/INDEX.md" }),
      call("compute_exec", { code: "import quiver.sources as q\nimport quiver.sources.everything as e\nprint(open(e.INDEX).read() == e.__doc__, 'echo(message: str) -> str' in e.__doc__)\nprint(q.__doc__.splitlines()[0])" }),
      text("done"),
    );
    const runId = await s.run(agent);
    const results = dataOf(await s.events(runId), "tool_result");
    const [top, notes, programmed] = results;
    expect(top!.text).toContain("quiver.sources.notes` (notes/INDEX.md): Notes.");
    expect(top!.text).not.toContain("quiver.sources.compute");
    const notesIndex = fs.readFileSync(path.join(root(), ".quiver/sources/notes/INDEX.md"), "utf8");
    expect(notesIndex).toContain("# Notes (`quiver.sources.notes`)");
    expect(notesIndex).toContain("Notes kept in the tree's work folder, one per subject. It is a tool file of the studio's tree: `tools/notes.py`.");
    expect(notesIndex).toContain("from quiver.sources.notes import add, token");
    expect(notesIndex).toContain("### `add(subject: str, body: str, *, loud: bool = False) -> str`\n\nKeep one note under a subject.");
    expect(notesIndex).toContain("- `subject`: What the note is about.");
    expect(notes!.text).toContain("Keep one note under a subject.");
    const everythingIndex = fs.readFileSync(path.join(root(), ".quiver/sources/everything/INDEX.md"), "utf8");
    expect(everythingIndex).toContain("### `get_sum(a: float, b: float) -> str`");
    expect(everythingIndex).toContain("The operation `get-sum`.");
    const filesIndex = fs.readFileSync(path.join(root(), ".quiver/sources/files/INDEX.md"), "utf8");
    expect(filesIndex).toContain("Reach for it for reading, searching and changing the agent's files under its folder.");
    expect(programmed!.text).toBe("True True\n# This agent's sources in code mode");
  });

  it("R-code-index: a narrower agent's run rewrites the index, dropping the sources it does not have", { timeout: 30_000 }, async () => {
    const readIndex = async (agent: string) => {
      s.model.reply(call("read_file", { path: ".quiver/sources/INDEX.md" }), text("read"));
      return dataOf(await s.events(await s.run(agent)), "tool_result")[0]!.text;
    };
    expect(await readIndex(await coder())).toContain("quiver.sources.everything");
    const narrow = await s.agent({ tools: [{ entry: "system:compute" }, { entry: "system:filesystem#read_file", settings: { root: "desk" } }] });
    expect(await readIndex(narrow)).not.toContain("quiver.sources.everything");
    expect(fs.readdirSync(path.join(root(), ".quiver/sources")).sort()).toEqual(["INDEX.md", "files"]);
    expect(fs.readFileSync(path.join(root(), ".quiver/sources/files/INDEX.md"), "utf8")).toContain("from quiver.sources.files import read_file\n");
  });

  it("R-code-index: a .quiver/sources that is a link is not written through", { timeout: 30_000 }, async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-code-outside-"));
    fs.mkdirSync(path.join(root(), ".quiver"), { recursive: true });
    fs.rmSync(path.join(root(), ".quiver/sources"), { recursive: true, force: true });
    fs.symlinkSync(outside, path.join(root(), ".quiver/sources"));
    try {
      const { result } = await program(await coder(), "from quiver.sources.notes import add\nprint(add('a', 'b'))");
      expect(result.text).toBe("kept a: b");
      expect(fs.readdirSync(outside)).toEqual([]);
    } finally {
      fs.rmSync(path.join(root(), ".quiver/sources"), { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
