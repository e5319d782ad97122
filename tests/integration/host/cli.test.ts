// The `quiver` command as a user runs it: catalog (table and --json), call and its exit statuses, mcp for any client.
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, describe, expect, it } from "vitest";
import { childBaseEnv } from "@/server/env";
import { hasBwrap, QUIVER_BIN, quiver, scratch } from "./helpers";

const GREET = `"""Greetings."""


def hello(name: str) -> str:
    """Greet someone by name.

    Args:
        name: Who to greet.
    """
    return f"hello {name}"


def refuse(name: str) -> str:
    """Always fail.

    Args:
        name: Ignored.
    """
    raise PermissionError(f"{name} may not be greeted")
`;

const BROKEN = `"""A file with an error."""


def bad(count) -> str:
    """A parameter without a type hint."""
    return str(count)
`;

const space = scratch("cli");
const tree = space.tree("tools", { "greet.py": GREET, "broken.py": BROKEN });
const run = (...args: string[]) => quiver(args, { dataDir: space.dataDir });

afterAll(() => space.cleanup());

describe("quiver catalog", () => {
  it("prints with --json exactly the catalog's {files: [...]} and nothing else", async () => {
    const { code, stdout } = await run("catalog", tree, "--json");
    expect(code).toBe(0);
    const catalog = JSON.parse(stdout) as { files: Array<Record<string, unknown>> };
    expect(Object.keys(catalog)).toEqual(["files"]);
    expect(catalog.files.map((file) => file.path)).toEqual(["broken.py", "greet.py"]);
    const greet = catalog.files[1]!;
    expect(Object.keys(greet).sort()).toEqual(["description", "errors", "kind", "offered", "path", "settings_schema", "title", "tools", "unavailable"]);
    expect(greet).toMatchObject({ kind: "functions", offered: true, errors: [] });
    const tool = (greet.tools as Array<Record<string, unknown>>)[0]!;
    expect(Object.keys(tool).sort()).toEqual(["description", "destructive", "input_schema", "name", "read_only", "replay", "risk", "scope", "timeout", "title"]);
    expect(tool).toMatchObject({ name: "greet__hello", input_schema: { type: "object", required: ["name"] } });
    const broken = catalog.files[0]!;
    expect(broken.offered).toBe(false);
    expect((broken.errors as Array<{ line: number }>)[0]!.line).toBe(4);
  });

  it("prints a table of files, kinds, tools and each error with its line", async () => {
    const { code, stdout } = await run("catalog", tree);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^greet\.py\s+functions\s+greet__hello, greet__refuse$/m);
    expect(stdout).toMatch(/^broken\.py\s+functions\s+\(not offered\)$/m);
    expect(stdout).toMatch(/^ {4}broken\.py:4: /m);
  });

  it("reads ./tools when no folder is given", async () => {
    const { code, stdout } = await quiver(["catalog", "--json"], { dataDir: space.dataDir, cwd: space.dir });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).files).toHaveLength(2);
  });
});

describe("quiver call", () => {
  it("prints the result as the model reads it, exit status 0", async () => {
    expect(await run("call", tree, "greet__hello", "--args", '{"name": "Ada"}')).toMatchObject({ code: 0, stdout: "hello Ada\n" });
  });

  it("exits 1 when the tool answers an error", async () => {
    const { code, stdout } = await run("call", tree, "greet__refuse", "--args", '{"name": "Bob"}');
    expect(code).toBe(1);
    expect(stdout).toBe("PermissionError: Bob may not be greeted\n");
  });

  it("exits 2 with one sentence on bad input", async () => {
    const bad = [
      ["call", tree, "greet__hello", "--args", "[1]"],
      ["call", tree],
      ["call", path.join(space.dir, "missing"), "x"],
      ["catalog", tree, "--bogus"],
      ["frobnicate"],
    ];
    const runs = await Promise.all(bad.map((args) => run(...args)));
    runs.forEach(({ code, stdout, stderr }, i) => {
      expect(code, bad[i]!.join(" ")).toBe(2);
      expect(stdout).toBe("");
      expect(stderr.trim().split("\n"), bad[i]!.join(" ")).toHaveLength(1);
    });
  });

  it("gives the host none of the studio's environment", async () => {
    const envTree = space.tree("env-tools", {
      "env.py": `"""The host's environment."""

import os


def show() -> dict:
    """The environment variables."""
    return dict(os.environ)
`,
    });
    const canary = "canary-cli-51c2";
    const { code, stdout } = await quiver(["call", envTree, "env__show"], {
      dataDir: space.dataDir,
      env: { QUIVER_SECRET_KEY: canary, DATABASE_URL: `postgres://u:${canary}@h/db`, ANTHROPIC_API_KEY: canary },
    });
    expect(code).toBe(0);
    expect(stdout).not.toContain(canary);
    expect(Object.keys(JSON.parse(stdout)).filter((name) => name.startsWith("QUIVER_") || name === "DATABASE_URL")).toEqual([]);
  });

  it.skipIf(!hasBwrap)("runs the host inside bubblewrap with --sandbox", async () => {
    expect(await run("call", tree, "greet__hello", "--args", '{"name": "box"}', "--sandbox")).toMatchObject({ code: 0, stdout: "hello box\n", stderr: "" });
  });

  it("prints its usage with --help", async () => {
    const { code, stdout } = await run("call", "--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: quiver <command>/);
  });
});

describe("quiver mcp", () => {
  it("serves the tree to the MCP SDK's own client over stdio", async () => {
    const client = new Client({ name: "any-mcp-client", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [QUIVER_BIN, "mcp", tree],
      env: { ...childBaseEnv(), QUIVER_DATA_DIR: space.dataDir },
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()?.tools).toMatchObject({ listChanged: true });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["greet__hello", "greet__refuse"]);
      const result = await client.callTool({ name: "greet__hello", arguments: { name: "MCP" } });
      expect(result.content).toEqual([{ type: "text", text: "hello MCP" }]);
    } finally {
      await client.close();
    }
  });
});
