// The project files through the tools.project router, as the Tools page calls it: only the four named files at the
// checkout's root (R-deps-edit), saved against the version they started from, a dependency file's save starting an
// install whose status and log the page reads (R-deps-status, R-deps-log), and tools/requirements.txt named as
// not a dependency file (R-deps-root).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import type { Role } from "@/db/schema";

const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "quiver-project-")));
const tools = path.join(scratch, "tools");
fs.mkdirSync(tools);
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = tools;
process.env.DATABASE_URL = "";

const developer = { id: "user-dev", email: "dev@quiver.test", name: "Dev", role: "developer" as Role };
const EMPTY_HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

async function api() {
  const { appRouter } = await import("@/server/trpc/router");
  const { createCallerFactory } = await import("@/server/trpc/init");
  return createCallerFactory(appRouter)({ headers: new Headers(), user: developer }).tools.project;
}

async function settled() {
  const { installUnderWay } = await import("@/server/tree/deps-status");
  await installUnderWay(tools);
}

async function refusal(work: Promise<unknown>): Promise<TRPCError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof TRPCError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

afterAll(async () => {
  await settled();
  const { closeAll } = await import("@/server/host");
  const { closeDatabase } = await import("@/server/db");
  await closeAll();
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the project files beside the tree", () => {
  it("R-deps-edit: lists the four files, reads an absent one as empty and creates it at the root on save", async () => {
    const project = await api();
    expect((await project.list()).map((file) => [file.name, file.present])).toEqual([
      ["requirements.txt", false],
      ["pyproject.toml", false],
      ["setup.sh", false],
      ["hooks/tools.py", false],
    ]);
    const { file } = await project.read({ path: "pyproject.toml" });
    expect(file).toMatchObject({ source: "", hash: EMPTY_HASH, present: false });
    const saved = await project.save({ path: "pyproject.toml", source: "[project]\nname = \"t\"\n", baseHash: EMPTY_HASH });
    expect(saved.installing).toBe(true);
    expect(fs.readFileSync(path.join(scratch, "pyproject.toml"), "utf8")).toContain("[project]");
    expect(fs.existsSync(path.join(tools, "pyproject.toml"))).toBe(false);
    await settled();
    // The first call opens the embedded database and the first install starts Python: slow on a busy machine.
  }, 120_000);

  it("R-deps-edit: a save from a version that is no longer on disk is a conflict carrying the file's text", async () => {
    const project = await api();
    const first = await project.save({ path: "setup.sh", source: "echo one\n", baseHash: EMPTY_HASH });
    fs.writeFileSync(path.join(scratch, "setup.sh"), "echo changed underneath\n");
    const err = await refusal(project.save({ path: "setup.sh", source: "echo two\n", baseHash: first.hash }));
    expect(err.code).toBe("CONFLICT");
    expect((err.cause as { details?: { current?: { source: string } } }).details?.current?.source).toBe("echo changed underneath\n");
    expect(fs.readFileSync(path.join(scratch, "setup.sh"), "utf8")).toBe("echo changed underneath\n");
    await settled();
    fs.rmSync(path.join(scratch, "setup.sh"));
  });

  it("R-deps-edit: any other path is refused, and so is a project file that is a link", async () => {
    const project = await api();
    for (const other of ["tools/requirements.txt", "../requirements.txt", "hooks/other.py", "notes.py", "/etc/passwd"]) {
      const err = await refusal(project.read({ path: other as "setup.sh" }));
      expect(err.code).toBe("BAD_REQUEST");
      expect(err.message).toContain("requirements.txt, pyproject.toml, setup.sh, hooks/tools.py");
    }
    const outside = path.join(scratch, "outside.txt");
    fs.writeFileSync(outside, "not yours\n");
    fs.symlinkSync(outside, path.join(scratch, "requirements.txt"));
    const err = await refusal(project.read({ path: "requirements.txt" }));
    expect([err.code, err.message]).toEqual(["BAD_REQUEST", expect.stringContaining("is a link or not a plain file")]);
    await refusal(project.save({ path: "requirements.txt", source: "x\n", baseHash: EMPTY_HASH }));
    expect(fs.readFileSync(outside, "utf8")).toBe("not yours\n");
    fs.rmSync(path.join(scratch, "requirements.txt"));
  });

  it("R-deps-edit: hooks/tools.py is saved into hooks/ beside the tree and decides by its new text (R-perm-hook)", async () => {
    const project = await api();
    const hook = "def check(call):\n    return None\n";
    await project.save({ path: "hooks/tools.py", source: hook, baseHash: EMPTY_HASH });
    const { hookSource } = await import("@/server/agents/hook");
    expect(await hookSource(tools)).toBe(hook);
    const again = await project.read({ path: "hooks/tools.py" });
    expect(again.file).toMatchObject({ present: true, source: hook });
    fs.rmSync(path.join(scratch, "hooks"), { recursive: true });
  });

  it("R-deps-status: a saved requirements.txt installs in the background; the status and the log say how it went", async () => {
    const project = await api();
    await project.save({ path: "requirements.txt", source: "# nothing to install yet\n", baseHash: EMPTY_HASH });
    expect((await project.status()).state).toBe("installing");
    await settled();
    const done = await project.log();
    expect(done.state).toBe("installed");
    expect(done.last?.status).toBe("installed");
    expect(done.log.text).toContain("-r requirements.txt");

    // R-deps-log: a run that installs nothing adds its line and keeps the transcript.
    await project.install();
    await settled();
    const quiet = await project.log();
    expect(quiet.state).toBe("unchanged");
    expect(quiet.log.text).toContain("-r requirements.txt");
    expect(quiet.log.text).toMatch(/ installed in [\d.]+ s\n.* unchanged in [\d.]+ s: /);
  });

  it("R-deps-root: tools/requirements.txt is named as not a dependency file, with where to move it", async () => {
    const project = await api();
    fs.writeFileSync(path.join(tools, "requirements.txt"), "tinypkg\n");
    const status = await project.status();
    expect(status.misplaced).toEqual(["tools/requirements.txt"]);
    expect(status.note).toBe(`tools/requirements.txt is not a dependency file: dependency files sit at the root of the checkout beside tools/, so move it to ${scratch}/.`);
    expect(status.root).toBe(scratch);
  });
});
