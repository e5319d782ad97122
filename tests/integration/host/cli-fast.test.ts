// `quiver call` on its plain ESM path (R-cli-call-fast): the same host command as the studio's, none of tsx or the
// studio's TypeScript loaded, and the same output, exit status and progress lines as the full CLI.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { plainCall, spawnSpec } from "@/server/cli/call-fast.mjs";
import { childBaseEnv } from "@/server/env";
import { hostCommand } from "@/server/host/command";
import { QUIVER_BIN, scratch } from "./helpers";

const TOOLS = `"""Tools the command line calls."""

import os

from quiver import Context


def hello(name: str) -> str:
    """Greet someone.

    Args:
        name: Who.
    """
    return f"hello {name}"


def refuse(name: str) -> str:
    """Always fail.

    Args:
        name: Ignored.
    """
    raise PermissionError(f"{name} may not be greeted")


def steps(count: int, ctx: Context) -> str:
    """Say each step.

    Args:
        count: How many.
    """
    for i in range(count):
        ctx.progress(f"step {i + 1}")
    return "stepped"


def die() -> str:
    """End the host in the middle of the call."""
    os._exit(3)
`;

const SETTINGS = `"""A tool with a setting and a bound."""

import time


class Settings:
    """How to greet.

    Attributes:
        greeting: Said before the name.
    """

    greeting: str = "hi"


def greet(name: str, settings: Settings) -> str:
    """Greet with the setting.

    Args:
        name: Who.
    """
    return f"{settings.greeting} {name}"


def nap(seconds: float) -> str:
    """Sleep a while.

    Args:
        seconds: How long.
    """
    time.sleep(seconds)
    return "rested"
`;

const space = scratch("cli-fast");
const tree = space.tree("tools", { "t.py": TOOLS, "s.py": SETTINGS });
afterAll(() => space.cleanup());

type Ran = { code: number | null; stdout: string; stderr: string };

function quiver(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const full = { ...childBaseEnv(), QUIVER_DATA_DIR: space.dataDir, ...env };
  return new Promise((resolve) => {
    execFile(process.execPath, [QUIVER_BIN, ...args], { cwd: space.dir, env: full as unknown as NodeJS.ProcessEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

describe("quiver call without the TypeScript toolchain", () => {
  it("R-cli-call-fast: starts the host with exactly the command the studio builds for an unsandboxed host", async () => {
    const studio = await hostCommand(tree, { sandbox: false, dataDir: space.dataDir });
    const fast = spawnSpec(studio.treeDir, { dataDir: space.dataDir, python: studio.command });
    expect(fast).toEqual({ command: studio.command, args: studio.args, cwd: studio.cwd, env: studio.env });
  });

  it("R-cli-call-fast: hands back what only the full CLI answers: --sandbox, --help, bad input, a missing folder", () => {
    const env = { QUIVER_DATA_DIR: space.dataDir };
    expect(plainCall([tree, "t__hello", "--args", '{"name": "a"}'], env, space.dir)).toMatchObject({ name: "t__hello", args: { name: "a" } });
    for (const argv of [[tree, "t__hello", "--sandbox"], [tree, "--help"], [tree], [tree, "t__hello", "--args", "[1]"], [tree, "t__hello", "--timeout", "0"], [path.join(space.dir, "missing"), "x"], [tree, "t__hello", "--bogus"]]) {
      expect(plainCall(argv, env, space.dir), argv.join(" ")).toBeNull();
    }
  });

  it("R-cli-call-fast: loads nothing of tsx and no TypeScript file", async () => {
    const seen = path.join(space.dir, "loaded.txt");
    const hook = path.join(space.dir, "hook.mjs");
    writeFileSync(hook, `import { registerHooks } from "node:module";\nimport { appendFileSync } from "node:fs";\nregisterHooks({ resolve(s, c, next) { const r = next(s, c); appendFileSync(${JSON.stringify(seen)}, r.url + "\\n"); return r; } });\n`);
    const ran = await quiver(["call", tree, "t__hello", "--args", '{"name": "Ada"}'], { NODE_OPTIONS: `--import ${hook}` });
    expect(ran).toMatchObject({ code: 0, stdout: "hello Ada\n" });
    const { readFileSync } = await import("node:fs");
    const loaded = readFileSync(seen, "utf8").trim().split("\n");
    expect(loaded.some((url) => url.endsWith("/server/cli/call-fast.mjs"))).toBe(true);
    expect(loaded.filter((url) => url.includes("/node_modules/") || /\.(c|m)?ts$/.test(url))).toEqual([]);
  });

  it("R-cli-call-fast: prints what the full CLI prints, with the same exit status and progress lines", async () => {
    const cases = [
      ["call", tree, "t__hello", "--args", '{"name": "Ada"}'],
      ["call", tree, "t__refuse", "--args", '{"name": "Bob"}'],
      ["call", tree, "t__steps", "--args", '{"count": 2}'],
      ["call", tree, "t__nothing"],
      ["call", tree, "t__die"],
      ["call", tree, "t__hello", "--args", "[1]"],
      ["call", tree, "s__greet", "--args", '{"name": "Ada"}', "--settings", '{"greeting": "good day"}'],
      ["call", tree, "s__nap", "--args", '{"seconds": 3}', "--timeout", "0.5"],
    ];
    const ran = await Promise.all(cases.map(async (args) => [await quiver(args), await quiver(args, { QUIVER_CLI_FULL: "1" })] as const));
    ran.forEach(([fast, full], i) => expect(fast, cases[i]!.join(" ")).toEqual(full));
    expect(ran[2]![0].stderr).toBe("… step 1\n… step 2\n");
    expect(ran[4]![0]).toMatchObject({ code: 1, stdout: expect.stringMatching(/^The tool host stopped while running t__die \(exit code 3\); /) });
    expect(ran[6]![0].stdout).toBe("good day Ada\n");
    expect(ran[7]![0]).toMatchObject({ code: 1, stdout: expect.stringMatching(/^TimeoutError: s__nap did not finish within 0.5 s/) });
  }, 180_000);
});
