import { describe, expect, it } from "vitest";
import { bwrapArgs, findOnPath, probeSandbox } from "./sandbox";

function mountsOf(args: string[]): string[][] {
  const takes: Record<string, number> = { "--ro-bind": 2, "--bind": 2, "--tmpfs": 1, "--dev": 1, "--proc": 1, "--chdir": 1 };
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    const n = takes[args[i]!] ?? 0;
    out.push(args.slice(i, i + 1 + n));
    i += n;
  }
  return out;
}

describe("the sandbox's arguments", () => {
  const paths = { treeDir: "/home/dev/tools", workDir: "/srv/quiver/.quiver/work/ab12", dataDir: "/srv/quiver/.quiver" };

  it("keeps the system read-only with a private /tmp and its own pid namespace", () => {
    const args = bwrapArgs(paths);
    expect(mountsOf(args).slice(0, 4)).toEqual([["--ro-bind", "/", "/"], ["--dev", "/dev"], ["--proc", "/proc"], ["--tmpfs", "/tmp"]]);
    expect(args).toEqual(expect.arrayContaining(["--die-with-parent", "--unshare-pid", "--new-session"]));
    expect(args.at(-1)).toBe("--");
  });

  it("hides the data folder and binds the work folder back inside it", () => {
    const mounts = mountsOf(bwrapArgs(paths)).map((m) => m.join(" "));
    const hidden = mounts.indexOf("--tmpfs /srv/quiver/.quiver");
    const work = mounts.indexOf("--bind /srv/quiver/.quiver/work/ab12 /srv/quiver/.quiver/work/ab12");
    expect(hidden).toBeGreaterThan(0);
    expect(work).toBeGreaterThan(hidden);
    expect(mounts).toContain("--bind /home/dev/tools /home/dev/tools");
  });

  it("binds a tree that lives inside the data folder after hiding it", () => {
    const mounts = mountsOf(bwrapArgs({ ...paths, treeDir: "/srv/quiver/.quiver/trees/t" })).map((m) => m.join(" "));
    expect(mounts.indexOf("--bind /srv/quiver/.quiver/trees/t /srv/quiver/.quiver/trees/t")).toBeGreaterThan(mounts.indexOf("--tmpfs /srv/quiver/.quiver"));
  });
});

describe("probing for bubblewrap", () => {
  it("says how to install bubblewrap when it is not on PATH", async () => {
    const probe = await probeSandbox("/nonexistent-quiver-path");
    expect(probe.bwrap).toBeNull();
    expect(probe.reason).toBe("bubblewrap is not installed; the tool host runs unsandboxed: install the bubblewrap package");
  });

  it("finds an executable on PATH and nothing elsewhere", () => {
    expect(findOnPath("sh", "/nonexistent:/bin:/usr/bin")).toMatch(/\/sh$/);
    expect(findOnPath("sh", "/nonexistent")).toBeNull();
  });
});

describe("programs the sandbox runs", () => {
  it("binds the tool host's own folder read-only after the private /tmp, so a checkout under /tmp still runs", () => {
    const mounts = mountsOf(
      bwrapArgs({ treeDir: "/tmp/t/tools", workDir: "/tmp/d/work/1", dataDir: "/tmp/d", programDirs: ["/tmp/checkout/server/toolhost"] }),
    ).map((m) => m.join(" "));
    const program = mounts.indexOf("--ro-bind /tmp/checkout/server/toolhost /tmp/checkout/server/toolhost");
    expect(program).toBeGreaterThan(mounts.indexOf("--tmpfs /tmp"));
  });

  it("keeps the data folder hidden when a program's folder holds it, and the tree and work folder writable", () => {
    const mounts = mountsOf(
      bwrapArgs({ treeDir: "/tmp/c/tools", workDir: "/tmp/c/.quiver/work/1", dataDir: "/tmp/c/.quiver", programDirs: ["/tmp/c"] }),
    ).map((m) => m.join(" "));
    const program = mounts.indexOf("--ro-bind /tmp/c /tmp/c");
    expect(program).toBeGreaterThan(mounts.indexOf("--tmpfs /tmp"));
    expect(mounts.indexOf("--tmpfs /tmp/c/.quiver")).toBeGreaterThan(program);
    expect(mounts.indexOf("--bind /tmp/c/tools /tmp/c/tools")).toBeGreaterThan(program);
    expect(mounts.indexOf("--bind /tmp/c/.quiver/work/1 /tmp/c/.quiver/work/1")).toBeGreaterThan(mounts.indexOf("--tmpfs /tmp/c/.quiver"));
  });

  it("binds a program's folder inside the data folder back after hiding the data folder", () => {
    const mounts = mountsOf(
      bwrapArgs({ treeDir: "/srv/t/tools", workDir: "/srv/d/work/1", dataDir: "/srv/d", programDirs: ["/srv/d/published/host"] }),
    ).map((m) => m.join(" "));
    expect(mounts.indexOf("--ro-bind /srv/d/published/host /srv/d/published/host")).toBeGreaterThan(mounts.indexOf("--tmpfs /srv/d"));
  });
});
