// What a tool host can see of the studio: a scrubbed environment always, and inside bubblewrap a read-only system,
// its own /tmp and no data folder.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeAll, hostFor, resultText } from "@/server/host";
import { hasBwrap, sandboxProbe, scratch } from "./helpers";

const PROBE = `"""What the host process can see of the machine."""

import os

from quiver import Secret


class Settings:
    """What a builder fills.

    Attributes:
        token: The service's token.
    """

    token: Secret | None = None


def environment() -> dict:
    """The host's environment variables."""
    return dict(os.environ)


def token_length(settings: Settings) -> int:
    """How long the token the call received is."""
    return len(settings.token or "")


def listing(folder: str) -> list:
    """The names in a folder.

    Args:
        folder: Absolute path of the folder.
    """
    return sorted(os.listdir(folder))


def read(file: str) -> str:
    """A file's text.

    Args:
        file: Absolute path of the file.
    """
    with open(file, encoding="utf-8") as handle:
        return handle.read()


def write(file: str) -> str:
    """Write a file and say where.

    Args:
        file: Absolute path of the file.
    """
    with open(file, "w", encoding="utf-8") as handle:
        handle.write("written")
    return file


def long() -> str:
    """A text long enough to be cut."""
    return "x" * 25_000
`;

const CANARY = "canary-7f3a9b";
const space = scratch("confinement");
let tree: string;

beforeAll(() => {
  tree = space.tree("tree", { "probe.py": PROBE });
  writeFileSync(path.join(space.dataDir, "secret.key"), "the studio's key");
  writeFileSync(path.join(space.dataDir, "pglite.db"), "the database");
  vi.stubEnv("QUIVER_SECRET_KEY", CANARY);
  vi.stubEnv("DATABASE_URL", `postgres://quiver:${CANARY}@db/quiver`);
  vi.stubEnv("OPENAI_API_KEY", CANARY);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await closeAll();
  space.cleanup();
});

describe.each([
  { sandbox: false, name: "unsandboxed" },
  { sandbox: true, name: "sandboxed" },
])("the $name host's environment", ({ sandbox }) => {
  it.skipIf(sandbox && !hasBwrap)("holds no studio setting, database URL or key, and settings arrive only in _meta", async () => {
    const sub = space.tree(`env-${sandbox}`, { "probe.py": PROBE });
    const host = hostFor(sub, { sandbox, dataDir: space.dataDir });
    const result = await host.call("probe__environment", {}, { settings: { token: `${CANARY}-setting` } });
    const environ = JSON.parse(resultText(result)) as Record<string, string>;
    expect(Object.keys(environ).filter((name) => name.startsWith("QUIVER_"))).toEqual([]);
    expect(environ).not.toHaveProperty("DATABASE_URL");
    expect(JSON.stringify(environ)).not.toContain(CANARY);
    expect(environ.HOME).toMatch(new RegExp(`^${space.dataDir}/work/[0-9a-f]{16}$`));
    expect(environ).toMatchObject({ PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1" });
    const length = await host.call("probe__token_length", {}, { settings: { token: `${CANARY}-setting` } });
    expect(resultText(length)).toBe(String(`${CANARY}-setting`.length));
  });
});

describe("the sandbox", () => {
  beforeAll(() => {
    if (!hasBwrap) console.info(`sandbox tests skipped: ${sandboxProbe.reason}`);
  });

  it.skipIf(!hasBwrap)("hides the studio's data folder: no database, no key, only the host's own work folder", async () => {
    const host = hostFor(tree, { sandbox: true, dataDir: space.dataDir });
    expect((await host.ready()).sandboxed).toBe(true);
    expect(JSON.parse(resultText(await host.call("probe__listing", { folder: space.dataDir })))).toEqual(["work"]);
    const key = await host.call("probe__read", { file: path.join(space.dataDir, "secret.key") });
    expect(resultText(key)).toMatch(/^FileNotFoundError: /);
  });

  it.skipIf(!hasBwrap)("keeps the system read-only and the tree writable", async () => {
    const host = hostFor(tree, { sandbox: true, dataDir: space.dataDir });
    const system = await host.call("probe__write", { file: "/usr/quiver-sandbox-test" });
    expect(resultText(system)).toMatch(/^OSError: .*Read-only file system/);
    expect(existsSync("/usr/quiver-sandbox-test")).toBe(false);
    const inTree = await host.call("probe__write", { file: path.join(tree, "made.txt") });
    expect(inTree.isError).toBe(false);
    expect(existsSync(path.join(tree, "made.txt"))).toBe(true);
  });

  it.skipIf(!hasBwrap)("R-cut-kept: keeps a cut result's file in the host's work folder, which the studio reads, not in its own /tmp", async () => {
    const host = hostFor(tree, { sandbox: true, dataDir: space.dataDir });
    const cut = await host.call("probe__long", {});
    expect(cut.truncated).toMatch(/\/work\/[0-9a-f]{16}\/\.results\/tool-[0-9a-f-]{36}\.txt$/);
    expect(existsSync(cut.truncated!)).toBe(true);
    const kept = await host.call("probe__read", { file: cut.truncated! });
    expect(kept.truncated).not.toBeNull(); // 25,000 characters again: cut again, so compare the head
    expect(resultText(kept).startsWith("x".repeat(4000))).toBe(true);
  });
});
