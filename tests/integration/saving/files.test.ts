// R-save-compare-and-write for tree files: two saves of one file from the same version, at the same moment, in one
// process and in two studio processes (each with its own embedded database, or sharing PostgreSQL when one is
// given): exactly one is written and the other is refused with the version on disk, in every round. The tests save
// files of their own, so they run side by side: the slow part is the studio processes' start-up.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/server/env";
import { closeDatabase } from "@/server/db";
import { createFile, deleteFile, saveFile, TreeError } from "@/server/tree/files";
import { createCallerFactory } from "@/server/trpc/init";
import { toolFilesRouter } from "@/server/trpc/routers/tool-files";
import { ONE_SAVED_ONE_REFUSED, outcome, Racer, startRound, tally } from "./race";

const ROUNDS = 100;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-saving-"));
const tree = path.join(scratch, "tools");
fs.mkdirSync(tree);
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = tree;

afterAll(async () => {
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The status a save answered: a TreeError and a TRPCError both carry CONFLICT as their code. */
const statusOf = (result: PromiseSettledResult<unknown>): number =>
  result.status === "fulfilled" ? 200 : (result.reason as { code?: string }).code === "CONFLICT" ? 409 : 500;

describe.concurrent("R-save-compare-and-write: two saves of one tree file from the same version", () => {
  it(`write one and refuse the other, in one process through the domain function (${ROUNDS} rounds)`, { timeout: 60_000 }, async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { baseHash, sources } = startRound(tree, "domain.py", round);
      const results = await Promise.allSettled(sources.map((source) => saveFile(tree, "domain.py", source, baseHash)));
      const statuses = results.map(statusOf) as [number, number];
      outcomes.push(outcome(statuses, sources, fs.readFileSync(path.join(tree, "domain.py"), "utf8")));
    }
    expect(tally(outcomes)).toEqual({ [ONE_SAVED_ONE_REFUSED]: ROUNDS });
  });

  it(`write one and refuse the other, in one process through the tRPC router (${ROUNDS} rounds)`, { timeout: 60_000 }, async () => {
    const caller = createCallerFactory(toolFilesRouter)({
      headers: new Headers(),
      user: { id: "dev", email: "dev@quiver.test", name: "Dev", role: "developer" },
    });
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { baseHash, sources } = startRound(tree, "router.py", round);
      const results = await Promise.allSettled(sources.map((source) => caller.save({ path: "router.py", source, baseHash })));
      const statuses = results.map(statusOf) as [number, number];
      outcomes.push(outcome(statuses, sources, fs.readFileSync(path.join(tree, "router.py"), "utf8")));
    }
    expect(tally(outcomes)).toEqual({ [ONE_SAVED_ONE_REFUSED]: ROUNDS });
  });

  it("answer the refused one with the winner's text, for the editor's diff", { timeout: 30_000 }, async () => {
    const { baseHash, sources } = startRound(tree, "diff.py", 0);
    const results = await Promise.allSettled(sources.map((source) => saveFile(tree, "diff.py", source, baseHash)));
    const won = results.findIndex((r) => r.status === "fulfilled");
    const refused = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!.reason as TreeError;
    expect(refused.code).toBe("CONFLICT");
    expect(refused.current?.source).toBe(sources[won]);
  });
});

describe.concurrent("R-save-one-at-a-time: other changes of a tree file never interleave with a save", () => {
  it("two creates of one name make one file and refuse the other (50 rounds)", { timeout: 30_000 }, async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 50; round++) {
      const name = `made_${round}.py`;
      const sources: [string, string] = [`# A ${round}\n`, `# B ${round}\n`];
      const results = await Promise.allSettled(sources.map((source) => createFile(tree, name, source)));
      const statuses = results.map((r) => (r.status === "fulfilled" ? 200 : (r.reason as TreeError).code === "EXISTS" ? 409 : 500));
      outcomes.push(outcome(statuses as [number, number], sources, fs.readFileSync(path.join(tree, name), "utf8")));
    }
    expect(tally(outcomes)).toEqual({ [ONE_SAVED_ONE_REFUSED]: 50 });
  });

  it("a file deleted while a save is under way stays deleted (50 rounds)", { timeout: 30_000 }, async () => {
    let resurrected = 0;
    for (let round = 0; round < 50; round++) {
      const { baseHash, sources } = startRound(tree, "doomed.py", round);
      const [saved, deleted] = await Promise.allSettled([saveFile(tree, "doomed.py", sources[0], baseHash), deleteFile(tree, "doomed.py")]);
      expect(deleted.status).toBe("fulfilled");
      if (saved.status === "rejected") expect((saved.reason as TreeError).code).toBe("NOT_FOUND");
      if (fs.existsSync(path.join(tree, "doomed.py"))) resurrected++;
    }
    expect(resurrected).toBe(0);
  });
});

describe.concurrent("R-save-stale-lock: a file's lock left by a process that died never blocks it for good", () => {
  it("takes over a lock not refreshed for longer than the stale limit, and leaves none behind", { timeout: 30_000 }, async () => {
    const { baseHash, sources } = startRound(tree, "orphan.py", 0);
    const lock = path.join(tree, ".orphan.py.lock");
    fs.mkdirSync(lock);
    const longAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, longAgo, longAgo);
    await saveFile(tree, "orphan.py", sources[0], baseHash);
    expect(fs.readFileSync(path.join(tree, "orphan.py"), "utf8")).toBe(sources[0]);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("waits for a live holder, then compares against what the holder wrote", { timeout: 30_000 }, async () => {
    const { baseHash, sources } = startRound(tree, "held.py", 0);
    const lock = path.join(tree, ".held.py.lock");
    fs.mkdirSync(lock);
    const saving = saveFile(tree, "held.py", sources[0], baseHash);
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.writeFileSync(path.join(tree, "held.py"), sources[1]);
    fs.rmdirSync(lock);
    await expect(saving).rejects.toMatchObject({ code: "CONFLICT", current: { source: sources[1] } });
  });
});

const sharedPostgres = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;

describe.concurrent.each([
  { database: "each with its own embedded database", url: undefined as string | undefined, skip: false },
  { database: `sharing PostgreSQL${sharedPostgres ? "" : " (skipped: no DATABASE_URL)"}`, url: sharedPostgres, skip: !sharedPostgres },
])("R-save-compare-and-write across two studio processes on one tree, $database", ({ url, skip }) => {
  it.skipIf(skip)(`write one and refuse the other when both save at the same moment (${ROUNDS} rounds)`, { timeout: 180_000 }, async () => {
    const racers = await Promise.all(
      ["a", "b"].map((side) =>
        Racer.start({
          QUIVER_TOOLS_DIR: tree,
          QUIVER_DATA_DIR: path.join(scratch, `racer-${side}-${url ? "pg" : "pglite"}`),
          DATABASE_URL: url ?? "",
          RACER_USER: `racer-${side}`,
        }),
      ),
    );
    // A file of this pair's own: the other pair races at the same time.
    const file = `shared_${url ? "pg" : "pglite"}.py`;
    try {
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const { baseHash, sources } = startRound(tree, file, round);
        const at = Date.now() + 40;
        const answers = await Promise.all(racers.map((racer, i) => racer.save({ round, at, path: file, source: sources[i]!, baseHash })));
        const statuses = answers.map((a) => a.status) as [number, number];
        outcomes.push(outcome(statuses, sources, fs.readFileSync(path.join(tree, file), "utf8")));
      }
      expect(tally(outcomes)).toEqual({ [ONE_SAVED_ONE_REFUSED]: ROUNDS });
    } finally {
      await Promise.all(racers.map((racer) => racer.stop()));
    }
  });
});
