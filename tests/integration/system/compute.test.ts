// system:compute's compute_exec (R-sys-compute): the model writes a program, and the program calls the tools: the tree's
// tools import as plain functions, in the tool host's sandbox and environment, bounded by the program's timeout.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SystemContext } from "@/server/system/types";
import { hasBwrap, sandboxProbe } from "../host/helpers";
import { call, context, place, type Place } from "./context";

const MATHX = `"""Small sums."""
from _helpers import twice


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def double(a: int) -> int:
    """Double a number."""
    return twice(a)
`;

let p: Place;
beforeEach(() => {
  p = place("compute");
  writeFileSync(path.join(p.tree, "mathx.py"), MATHX);
  writeFileSync(path.join(p.tree, "_helpers.py"), "def twice(n):\n    return 2 * n\n");
  writeFileSync(path.join(p.tree, "other.py"), 'def hello() -> str:\n    """Say hello."""\n    return "hello"\n');
});
afterEach(() => p.cleanup());

const run = (code: string, files: SystemContext["tree"]["files"] = { "mathx.py": null }, extra: Partial<SystemContext> & { timeout?: number } = {}) => {
  const { timeout, ...overrides } = extra;
  return call("compute", "compute_exec", { code, ...(timeout ? { timeout } : {}) }, context(p, { tree: { dir: p.tree, files }, sandbox: false, ...overrides }));
};

describe("compute_exec", () => {
  it("imports a tree tool as a plain function and calls it, many times in one program", async () => {
    const program = ["from tools.mathx import add, double", "from mathx import add as add2", "total = 0", "for i in range(10):", "    total = add(total, i)", "print(total, double(21), add2(1, 2))"].join("\n");
    expect(await run(program)).toEqual({ outcome: "ok", text: "45 42 3" });
  });

  it("refuses a tool file the agent was not given, with a sentence naming what it has", async () => {
    for (const program of ["import tools.other", "from tools import other", "from other import hello", "import other"]) {
      const result = await run(program);
      expect(result.outcome, program).toBe("failed");
      expect(result.text).toContain("ImportError: tools/other.py is not one of this agent's tools, so the program cannot use it; this agent was given tools/mathx.py");
      expect(result.text).not.toContain("<string>");
    }
  });

  it("refuses a function its entry narrowed away, and runs the ones it names", async () => {
    const narrowed = { "mathx.py": ["mathx__add"] };
    expect(await run("from tools.mathx import add\nprint(add(2, 3))", narrowed)).toEqual({ outcome: "ok", text: "5" });
    const refused = await run("from tools.mathx import double", narrowed);
    expect(refused.text).toContain("ImportError: double of tools/mathx.py is not one of this agent's tools; it was given mathx__add");
    const attribute = await run("import tools.mathx\nprint(tools.mathx.double(1))", narrowed);
    expect(attribute.text).toContain("AttributeError: double of tools/mathx.py is not one of this agent's tools");
  });

  it("answers an exception as its traceback, pointing at the program's own line", async () => {
    const result = await run("x = 1\ny = x / 0");
    expect(result.outcome).toBe("failed");
    expect(result.text).toContain('File "<compute_exec>", line 2');
    expect(result.text).toContain("ZeroDivisionError: division by zero");
    expect(result.text).not.toContain("<string>");
  });

  it("stops a program at its timeout", async () => {
    const started = Date.now();
    const result = await run("while True:\n    pass", {}, { timeout: 1 });
    expect(result.outcome).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("runs with the tool host's scrubbed environment: nothing of the studio's process reaches it", async () => {
    const canary = `canary-${randomUUID()}`;
    process.env.QUIVER_SYSTEM_CANARY = canary;
    try {
      const result = await run("import os\nprint(sorted(os.environ))\nprint(dict(os.environ))");
      expect(result.outcome).toBe("ok");
      expect(result.text).not.toContain(canary);
      expect(result.text).not.toContain("QUIVER_");
    } finally {
      delete process.env.QUIVER_SYSTEM_CANARY;
    }
  });

  it("can import the quiver module a tool file uses", async () => {
    expect(await run("import quiver\nprint(quiver.Refused.__name__)")).toEqual({ outcome: "ok", text: "Refused" });
  });
});

describe.skipIf(!hasBwrap)(`compute_exec in the sandbox${hasBwrap ? "" : ` (skipped: ${sandboxProbe.reason})`}`, () => {
  it("calls a tree tool inside bubblewrap, with the studio's data folder hidden", async () => {
    writeFileSync(path.join(p.dataDir, "quiver.key"), "the studio key");
    const program = [
      "import os",
      "from tools.mathx import add",
      "print(add(1, 1))",
      `print(os.path.exists(${JSON.stringify(path.join(p.dataDir, "quiver.key"))}))`,
    ].join("\n");
    expect(await run(program, { "mathx.py": null }, { sandbox: true })).toEqual({ outcome: "ok", text: "2\nFalse" });
  });
});
