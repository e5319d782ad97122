// system:bash's run_bash (R-sys-bash): its bound (the command's own timeout ends it first, R-sys-timeouts), a process group killed whole,
// an environment with nothing of the studio's in it, and the tool host's sandbox where bubblewrap works.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasBwrap, sandboxProbe } from "../host/helpers";
import { call, context, place, type Place } from "./context";

let p: Place;
beforeEach(() => {
  p = place("bash");
});
afterEach(() => p.cleanup());

const bash = (command: string, extra: Record<string, unknown> = {}, sandbox = false, signal?: AbortSignal) =>
  call("bash", "run_bash", { command, ...extra }, context(p, { sandbox, ...(signal ? { signal } : {}) }));

/** Whether `pid` still runs: a killed process whose parent is gone may linger as a zombie until it is reaped. */
const alive = (pid: number) => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
};

describe("run_bash", () => {
  it("answers the exit status and the combined output, in the agent's working folder", async () => {
    expect(await bash("pwd; echo out; echo err >&2")).toEqual({ outcome: "ok", text: `Exit status 0\n${p.root}\nout\nerr` });
    expect(await bash("echo no; exit 3")).toEqual({ outcome: "failed", text: "Exit status 3\nno" });
  });

  it("stops a command at its own timeout argument and kills everything it started", async () => {
    const started = Date.now();
    const result = await bash("sleep 30 & echo $! > bg.pid; sleep 30", { timeout: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.outcome).toBe("timeout");
    expect(result.text).toContain("did not finish within 1 s and was stopped; it may have partly run");
    const pid = Number(readFileSync(path.join(p.root, "bg.pid"), "utf8"));
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(pid)).toBe(false);
  });

  it("stops when the call is cancelled", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await bash("sleep 30", {}, false, controller.signal);
    expect(result).toMatchObject({ outcome: "failed", text: expect.stringContaining("stopped because the call was cancelled") });
  });

  it("leaves nothing running after the command exits", async () => {
    await bash("sleep 30 > /dev/null 2>&1 & echo $! > bg.pid");
    const pid = Number(readFileSync(path.join(p.root, "bg.pid"), "utf8"));
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(pid)).toBe(false);
  });

  it("gives the command a scrubbed environment: no variable of the studio's process reaches it", async () => {
    const canary = `canary-${randomUUID()}`;
    process.env.QUIVER_SYSTEM_CANARY = canary;
    try {
      const result = await bash("env");
      expect(result.outcome).toBe("ok");
      expect(result.text).not.toContain(canary);
      expect(result.text).not.toContain("QUIVER_");
      expect(result.text).not.toContain("DATABASE_URL");
      expect(result.text).toMatch(/^PATH=/m);
    } finally {
      delete process.env.QUIVER_SYSTEM_CANARY;
    }
  });

  it("caps what it keeps of a long output, keeping its start and its end", async () => {
    const result = await bash("head -c 2000000 /dev/zero | tr '\\0' x; echo; echo the-end");
    expect(result.text.length).toBeLessThan(400_000);
    expect(result.text).toContain("bytes of output dropped");
    expect(result.text.endsWith("the-end")).toBe(true);
  });
});

describe.skipIf(!hasBwrap)(`run_bash in the sandbox${hasBwrap ? "" : ` (skipped: ${sandboxProbe.reason})`}`, () => {
  it("hides the data folder, keeps the system read-only and /tmp private, and lets the working folder be written", async () => {
    writeFileSync(path.join(p.dataDir, "quiver.key"), "the studio key");
    const marker = `quiver-bash-${randomUUID()}`;
    const result = await bash(
      [
        `cat ${path.join(p.dataDir, "quiver.key")} 2>/dev/null || echo key-hidden`,
        "touch /usr/quiver-probe 2>/dev/null || echo system-read-only",
        `echo private > /tmp/${marker}`,
        "echo written > out.txt",
      ].join("; "),
      {},
      true,
    );
    expect(result.outcome).toBe("ok");
    expect(result.text).toContain("key-hidden");
    expect(result.text).not.toContain("the studio key");
    expect(result.text).toContain("system-read-only");
    expect(existsSync(path.join(tmpdir(), marker))).toBe(false);
    expect(readFileSync(path.join(p.root, "out.txt"), "utf8")).toBe("written\n");
  });

  it("stops a sandboxed command at its timeout", async () => {
    const started = Date.now();
    expect((await bash("sleep 30", { timeout: 1 }, true)).outcome).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
