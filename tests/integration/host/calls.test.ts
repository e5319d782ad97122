// Calls through server/host/ to the real Python tool host: listing, results, errors, cut results, bounds, confinement.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAll, hostFor, resultText, type Host } from "@/server/host";
import { scratch } from "./helpers";

const BASICS = `"""Small tools the host's tests call."""

import json


def echo(text: str) -> str:
    """Say the text back.

    Args:
        text: What to say.
    """
    return text


def fail(reason: str) -> str:
    """Raise a ValueError carrying the reason.

    Args:
        reason: The error's message.
    """
    raise ValueError(reason)


def long(size: int) -> str:
    """Return a text of the given length.

    Args:
        size: How many characters.
    """
    return "".join(chr(97 + i % 26) for i in range(size))


def stats(values: list[int]) -> dict:
    """Count and sum numbers.

    Args:
        values: The numbers.
    """
    return {"count": len(values), "sum": sum(values)}
`;

const SLOW = `"""A tool that sleeps, bounded at one second."""

import time

TIMEOUT = 1


def nap(seconds: float) -> str:
    """Sleep, then say so.

    Args:
        seconds: How long to sleep.
    """
    time.sleep(seconds)
    return "awake"
`;

const FILES = `"""Files under one folder the builder chooses."""

from pathlib import Path

from quiver import Root


class Settings:
    """Where the files are.

    Attributes:
        root: Folder every path is confined to.
        greeting: Said before the text.
    """

    root: Root = "."
    greeting: str = "hi"


def read(path: Path, settings: Settings) -> str:
    """Read one text file under the root.

    Args:
        path: File to read, relative to the root.
    """
    return settings.greeting + " " + path.read_text()
`;

const space = scratch("calls");
let host: Host;
let inside: string;

beforeAll(async () => {
  const tree = space.tree("tree", { "basics.py": BASICS, "slow.py": SLOW, "files.py": FILES, "_helper.py": "X = 1\n" });
  inside = path.join(space.dir, "inside");
  mkdirSync(inside);
  writeFileSync(path.join(inside, "note.txt"), "from inside");
  writeFileSync(path.join(space.dir, "outside.txt"), "from outside");
  symlinkSync(path.join(space.dir, "outside.txt"), path.join(inside, "escape.txt"));
  host = hostFor(tree, { sandbox: false, dataDir: space.dataDir });
  await host.ready();
});

afterAll(async () => {
  await closeAll();
  space.cleanup();
});

describe("a tree served by the tool host", () => {
  it("lists every public function as file__function, and no helper", async () => {
    const names = (await host.listTools()).map((tool) => tool.name);
    expect(names.sort()).toEqual(["basics__echo", "basics__fail", "basics__long", "basics__stats", "files__read", "slow__nap"]);
    const catalog = await host.catalog();
    expect(catalog.files.find((file) => file.path === "_helper.py")?.kind).toBe("helper");
  });

  it("returns a string as text and any other JSON value as its JSON", async () => {
    const text = await host.call("basics__echo", { text: "héllo" });
    expect(text).toMatchObject({ isError: false, outcome: "ok", content: [{ type: "text", text: "héllo" }] });
    const json = await host.call("basics__stats", { values: [1, 2, 3] });
    expect(JSON.parse(resultText(json))).toEqual({ count: 3, sum: 6 });
    expect(json.durationMs).toBeTypeOf("number");
  });

  it("answers an exception as <Type>: <message>, and the run goes on", async () => {
    const result = await host.call("basics__fail", { reason: "lines are counted from 1" });
    expect(result).toMatchObject({ isError: true, outcome: "failed" });
    expect(resultText(result)).toBe("ValueError: lines are counted from 1");
    expect((await host.call("basics__echo", { text: "still here" })).isError).toBe(false);
  });

  it("cuts a string over 20,000 characters to its head and tail and keeps it whole in a file", async () => {
    const result = await host.call("basics__long", { size: 30_000 });
    const text = resultText(result);
    // R-cut-kept: in .results/ of the host's work folder, which the studio reads too.
    expect(result.truncated).toMatch(/\/work\/[0-9a-f]{16}\/\.results\/tool-[0-9a-f-]{36}\.txt$/);
    expect(text.startsWith("abcdefghij")).toBe(true);
    expect(text).toContain(`.results/${path.basename(result.truncated!)} (in the tool host's working folder)`);
    expect(text.length).toBeLessThan(6_000);
    expect(existsSync(result.truncated!)).toBe(true);
    expect(readFileSync(result.truncated!, "utf8")).toHaveLength(30_000);
    rmSync(result.truncated!);
  });

  it("bounds a call by the file's TIMEOUT, answers TimeoutError, and serves the next call", async () => {
    const started = Date.now();
    const late = await host.call("slow__nap", { seconds: 2 }); // ends within the grace of R-host-runaway, so the host is kept
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(late).toMatchObject({ isError: true, outcome: "timeout" });
    expect(resultText(late)).toMatch(/^TimeoutError: slow__nap did not finish within 1 s/);
    expect(resultText(await host.call("slow__nap", { seconds: 0 }))).toBe("awake");
  });

  it("refuses an unknown tool with the names it could have meant", async () => {
    const result = await host.call("basics__ecko", { text: "x" });
    expect(result).toMatchObject({ isError: true, outcome: "refused" });
    expect(resultText(result)).toMatch(/basics__echo/);
  });

  it("passes settings through _meta, never as arguments", async () => {
    const settings = { root: inside, greeting: "hello" };
    expect(resultText(await host.call("files__read", { path: "note.txt" }, { settings }))).toBe("hello from inside");
    const smuggled = await host.call("files__read", { path: "note.txt", greeting: "x" }, { settings });
    expect(smuggled).toMatchObject({ isError: true, outcome: "refused" });
  });

  it("refuses paths that leave the root: .., an absolute path, a symlink", async () => {
    const settings = { root: inside };
    for (const escape of ["../outside.txt", path.join(space.dir, "outside.txt"), "escape.txt"]) {
      const result = await host.call("files__read", { path: escape }, { settings });
      expect(result, escape).toMatchObject({ isError: true, outcome: "refused" });
      expect(resultText(result)).not.toContain("from outside");
    }
  });

  it("reports progress lines from ctx.progress while the call runs", async () => {
    const tree = space.tree("progress", {
      "steps.py": `"""Steps."""

from quiver import Context


def count(ctx: Context) -> str:
    """Count to three aloud."""
    for word in ("one", "two", "three"):
        ctx.progress(word)
    return "done"
`,
    });
    const lines: string[] = [];
    const result = await hostFor(tree, { sandbox: false, dataDir: space.dataDir }).call("steps__count", {}, { onProgress: (p) => lines.push(p.message ?? "") });
    expect(resultText(result)).toBe("done");
    expect(lines).toEqual(["one", "two", "three"]);
  });

  it("previews an unsaved buffer without touching the file, errors with their lines", async () => {
    const entry = await host.preview("basics.py", `"""Draft."""


def shout(text: str) -> str:
    """Say it loud.

    Args:
        text: What to say.
    """
    return text.upper()


def broken(count) -> str:
    """No hint."""
    return ""
`);
    expect(entry.path).toBe("basics.py");
    expect(entry.offered).toBe(false);
    expect(entry.tools.map((tool) => tool.name)).toContain("basics__shout");
    expect(entry.errors[0]?.line).toBe(13);
    expect((await host.listTools()).map((tool) => tool.name)).toContain("basics__echo");
  });

  it("asks the file's check_secret whether a secret value is usable", async () => {
    const tree = space.tree("secrets", {
      "svc.py": `"""A service with a token."""

from quiver import Secret

CREDENTIAL_HELP = "A token starts with tok_."


class Settings:
    """Credentials.

    Attributes:
        token: The service's token.
    """

    token: Secret | None = None


def check_secret(name, value):
    if not value.startswith("tok_"):
        return "a token starts with tok_; copy it from the service's settings page"


def ping(settings: Settings) -> str:
    """Answer."""
    return "pong"
`,
    });
    const svc = hostFor(tree, { sandbox: false, dataDir: space.dataDir });
    expect(await svc.checkSecret("svc.py", "token", "tok_123")).toEqual({ ok: true, message: null });
    expect(await svc.checkSecret("svc.py", "token", "nope")).toEqual({ ok: false, message: expect.stringMatching(/starts with tok_/) });
    await expect(svc.checkSecret("svc.py", "missing", "x")).rejects.toThrow(/has no Secret setting `missing`/);
  });
});
