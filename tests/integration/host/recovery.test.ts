// A host that recovers from what its tools do (docs/rules.md, Host limits): a call that will not stop after its
// timeout, memory a call leaves behind, processes a tool never waits for, and a file that does not import.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeAll, hostFor, resultText } from "@/server/host";
import { hasBwrap, scratch, waitFor } from "./helpers";

const BUSY = `"""Tools that do not stop when their time is up."""

import subprocess
import time

from quiver import tool


@tool(timeout=1)
def spin(marker: str) -> str:
    """Start a child that sleeps, write its pid to marker, then loop for ever."""
    child = subprocess.Popen(["sleep", "60"])
    with open(marker, "w") as out:
        out.write(str(child.pid))
    while True:
        pass


@tool(timeout=1)
def doze(seconds: float) -> str:
    """Sleep past the one-second timeout, then return."""
    time.sleep(seconds)
    return "rested"


@tool(timeout=30)
def nap(seconds: float) -> str:
    """Sleep well within a timeout of its own."""
    time.sleep(seconds)
    return "awake"


@tool
def ping() -> str:
    """Answer at once."""
    return "pong"
`;

const HOG = `"""Tools that use memory."""

KEPT = []


def keep(mb: int) -> int:
    """Keep mb megabytes, touched, until the host ends."""
    KEPT.append(b"x" * (mb << 20))
    return len(KEPT)


def ask_for(gb: int) -> int:
    """Ask for gb gigabytes at once."""
    return len(bytearray(gb << 30))


def echo(text: str) -> str:
    """Say it back."""
    return text
`;

const FORKS = `"""A tool that forks and never waits."""

import os


def children(tag: str) -> str:
    """Fork 50 children, each named tag, that exit at once."""
    for _ in range(50):
        if os.fork() == 0:
            fd = os.open("/proc/self/comm", os.O_WRONLY)
            os.write(fd, tag.encode())
            os.close(fd)
            os._exit(0)
    return "forked"
`;

const BROKEN = `import not_a_module_anywhere


def run() -> str:
    """Never offered: the import above fails."""
    return "ran"
`;

const space = scratch("recovery");
afterAll(async () => {
  await closeAll();
  space.cleanup();
});

/** Whether a process is gone or only a zombie waiting for a parent to read it. */
function stopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
  } catch {
    return true;
  }
}

/** The zombies on this machine whose name is `tag`. */
function zombies(tag: string): number {
  let count = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (comm === tag && stopped(Number(pid))) count += 1;
    } catch {
      // gone while we looked
    }
  }
  return count;
}

describe("a host that recovers", () => {
  for (const sandbox of [false, true]) {
    it.skipIf(sandbox && !hasBwrap)(
      `replaces a host whose timed-out call does not stop within 2 s, stops what the call started, and answers the other calls in flight (${sandbox ? "sandboxed" : "unsandboxed"})`,
      async () => {
        const tree = space.tree(`runaway-${sandbox}`, { "busy.py": BUSY });
        const host = hostFor(tree, { sandbox, dataDir: space.dataDir });
        const before = await host.ready();
        const marker = path.join(tree, "child.pid");
        const napping = host.call("busy__nap", { seconds: 20 });
        const spun = await host.call("busy__spin", { marker });
        expect(spun).toMatchObject({ isError: true, outcome: "timeout" });
        const timedOutAt = Date.now();
        const nap = await napping;
        expect(Date.now() - timedOutAt).toBeGreaterThan(1_500);
        expect(Date.now() - timedOutAt).toBeLessThan(5_000);
        expect(nap.isError).toBe(true);
        expect(resultText(nap)).toBe(
          "The tool host was replaced because busy__spin did not stop within 2 s of its 1 s timeout; busy__nap may have partly run, so check its effects before calling it again.",
        );
        expect(host.status).toMatchObject({ lastReplacement: "busy__spin did not stop within 2 s of its 1 s timeout", replacedAt: expect.any(String) });
        await waitFor(() => stopped(before.pid!), 3_000, "the replaced host to end");
        if (!sandbox) await waitFor(() => stopped(Number(readFileSync(marker, "utf8"))), 3_000, "the runaway call's child to end");
        expect(resultText(await host.call("busy__ping", {}))).toBe("pong");
        expect(host.status.pid).not.toBe(before.pid);
      },
    );
  }

  it("keeps the host of a timed-out call that stops within the grace", async () => {
    const tree = space.tree("grace", { "busy.py": BUSY });
    const host = hostFor(tree, { sandbox: false, dataDir: space.dataDir });
    const before = await host.ready();
    expect(await host.call("busy__doze", { seconds: 1.5 })).toMatchObject({ outcome: "timeout" });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(resultText(await host.call("busy__ping", {}))).toBe("pong");
    expect(host.status).toMatchObject({ pid: before.pid, lastReplacement: null, replacedAt: null });
  });

  it("replaces a host that a call leaves over its soft memory limit, after answering the call", async () => {
    const tree = space.tree("soft-memory", { "hog.py": HOG });
    const host = hostFor(tree, { sandbox: false, dataDir: space.dataDir, limits: { softMemoryMb: 64 } });
    const before = await host.ready();
    expect(resultText(await host.call("hog__echo", { text: "light" }))).toBe("light");
    expect(host.status.pid).toBe(before.pid);
    expect(resultText(await host.call("hog__keep", { mb: 100 }))).toBe("1");
    expect(host.status.lastReplacement).toMatch(/^hog__keep left the tool host holding \d+ MB, over its 64 MB soft limit$/);
    await waitFor(() => stopped(before.pid!), 3_000, "the replaced host to end");
    expect(resultText(await host.call("hog__echo", { text: "fresh" }))).toBe("fresh");
    expect(host.status.pid).not.toBe(before.pid);
  });

  it("answers MemoryError, with the cap, to a tool that asks for more than the host may have, and serves the next call", async () => {
    const tree = space.tree("memory-cap", { "hog.py": HOG });
    const host = hostFor(tree, { sandbox: false, dataDir: space.dataDir, limits: { addressSpaceMb: 1024 } });
    const result = await host.call("hog__ask_for", { gb: 8 });
    expect(result).toMatchObject({ isError: true, outcome: "failed" });
    expect(resultText(result)).toMatch(/^MemoryError: hog__ask_for ran out of memory; the tool host allows 1024 MB of address space/);
    expect(resultText(await host.call("hog__echo", { text: "still" }))).toBe("still");
  });

  for (const sandbox of [false, true]) {
    it.skipIf(sandbox && !hasBwrap)(`reaps the children a tool forks and never waits for (${sandbox ? "sandboxed" : "unsandboxed"})`, async () => {
      const tree = space.tree(`forks-${sandbox}`, { "forks.py": FORKS });
      const host = hostFor(tree, { sandbox, dataDir: space.dataDir });
      const tag = `qzfork${process.pid % 100_000}`;
      expect(resultText(await host.call("forks__children", { tag }))).toBe("forked");
      await waitFor(() => zombies(tag) === 0, 5_000, "the forked children to be reaped");
    });
  }

  it("answers a call to a file that does not import with the file's first error", async () => {
    const tree = space.tree("broken", { "broken.py": BROKEN });
    const result = await hostFor(tree, { sandbox: false, dataDir: space.dataDir }).call("broken__run", {});
    expect(result).toMatchObject({ isError: true, outcome: "refused" });
    expect(resultText(result)).toBe(
      "Unknown tool `broken__run`: broken.py does not import (line 1: ModuleNotFoundError: No module named 'not_a_module_anywhere'), so it offers no tools until it is fixed.",
    );
  });
});
