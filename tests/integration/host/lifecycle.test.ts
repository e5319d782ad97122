// A host over time: a changed file runs on the next call, list_changed is announced, a killed host is replaced.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeAll, hostFor, resultText } from "@/server/host";
import { hasBwrap, rewrite, sandboxProbe, scratch, waitFor } from "./helpers";

const version = (answer: string) => `"""A file the test rewrites."""


def which() -> str:
    """Say which version of the file is loaded."""
    return "${answer}"
`;

const SLEEPER = `"""A tool that sleeps until it is killed."""

import time

from quiver import Context


def sleep(ctx: Context) -> str:
    """Sleep for half a minute, saying so first."""
    ctx.progress("sleeping")
    time.sleep(30)
    return "woke up"


def ping() -> str:
    """Answer at once."""
    return "pong"
`;

const space = scratch("lifecycle");
afterAll(async () => {
  await closeAll();
  space.cleanup();
});

describe("a tool host over time", () => {
  it("runs the new body of a changed file on the very next call", async () => {
    const tree = space.tree("reload", { "live.py": version("first") });
    const host = hostFor(tree, { sandbox: false, dataDir: space.dataDir, watchIntervalS: 0 });
    expect(resultText(await host.call("live__which", {}))).toBe("first");
    rewrite(path.join(tree, "live.py"), version("second"));
    expect(resultText(await host.call("live__which", {}))).toBe("second");
  });

  it("announces tools/list_changed after a file changes", async () => {
    const tree = space.tree("announce", { "live.py": version("first") });
    const host = hostFor(tree, { sandbox: false, dataDir: space.dataDir, watchIntervalS: 0.1 });
    let changes = 0;
    host.onToolsChanged(() => (changes += 1));
    await host.listTools();
    rewrite(path.join(tree, "new_file.py"), version("new"));
    await waitFor(() => changes > 0, 5_000, "list_changed");
    expect((await host.listTools()).map((tool) => tool.name).sort()).toEqual(["live__which", "new_file__which"]);
  });

  for (const sandbox of [false, true]) {
    it.skipIf(sandbox && !hasBwrap)(`answers a call whose host was killed with the exit and serves the next call from a fresh host (${sandbox ? "sandboxed" : "unsandboxed"})`, async () => {
      const tree = space.tree(`killed-${sandbox}`, { "sleeper.py": SLEEPER });
      const host = hostFor(tree, { sandbox, dataDir: space.dataDir });
      const before = await host.ready();
      expect(before.sandboxed).toBe(sandbox);
      let sleeping = false;
      const call = host.call("sleeper__sleep", {}, { onProgress: () => (sleeping = true) });
      await waitFor(() => sleeping, 5_000, "the call to start sleeping");
      process.kill(before.pid!, "SIGKILL");
      const result = await call;
      expect(result).toMatchObject({ isError: true, outcome: "failed" });
      expect(resultText(result)).toBe(
        "The tool host stopped while running sleeper__sleep (exit code 137, signal SIGKILL); it has been restarted — check whether the call took effect before trying again",
      );
      expect(resultText(await host.call("sleeper__ping", {}))).toBe("pong");
      expect(host.status.pid).not.toBe(before.pid);
    });
  }

  it("says why a host runs unsandboxed", async () => {
    const tree = space.tree("status", { "live.py": version("x") });
    const status = await hostFor(tree, { sandbox: false, dataDir: space.dataDir }).ready();
    expect(status).toMatchObject({ sandboxed: false, reason: expect.stringMatching(/unsandboxed/) });
    if (!hasBwrap) console.info(`sandboxed runs are skipped here: ${sandboxProbe.reason}`);
  });
});
