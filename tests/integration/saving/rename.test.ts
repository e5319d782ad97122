// Renaming a tree file onto a name that still has drafts (R-save-draft-kept): drafts left there by an editor kept
// open on a file deleted since belong to no file, so they give way and the renamed file's own drafts follow it;
// the move of the file and of its drafts happens whole or not at all.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { drafts, user } from "@/db/schema";
import { closeDatabase, getDb } from "@/server/db";
import { parseEnv } from "@/server/env";
import { getDraft, moveDrafts, putDraft } from "@/server/tree/drafts";
import { hashSource, renameFile } from "@/server/tree/files";
import { createCallerFactory } from "@/server/trpc/init";
import { toolFilesRouter } from "@/server/trpc/routers/tool-files";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-saving-rename-"));
const tree = path.join(scratch, "tools");
fs.mkdirSync(tree);
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = tree;

const ann = { id: "dev-ann", email: "ann@quiver.test", name: "Ann", role: "developer" as const };
const bob = { id: "dev-bob", email: "bob@quiver.test", name: "Bob", role: "developer" as const };
const as = (who: typeof ann) => createCallerFactory(toolFilesRouter)({ headers: new Headers(), user: who });
let db: Db;

beforeAll(async () => {
  db = await getDb();
  await db.insert(user).values([ann, bob]);
});
afterAll(async () => {
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const onDisk = (name: string) => (fs.existsSync(path.join(tree, name)) ? fs.readFileSync(path.join(tree, name), "utf8") : null);

/** `name` written on disk with `text`; its hash, as an editor holds it. */
function lay(name: string, text: string): string {
  fs.writeFileSync(path.join(tree, name), text);
  return hashSource(text);
}

/** A draft of `name` kept by Bob's editor, which stayed open while Ann deleted the file: it names no file now. */
async function staleDraft(name: string, text: string): Promise<void> {
  const hash = lay(name, `"""${name} before it was deleted."""\n`);
  await as(ann).remove({ path: name });
  await as(bob).putDraft({ path: name, source: text, baseHash: hash });
}

describe("renaming onto a name a deleted file's draft still holds", () => {
  it("moves the file with its own drafts, and the deleted file's draft gives way", async () => {
    const hash = lay("first.py", '"""First."""\n');
    await as(bob).putDraft({ path: "first.py", source: '"""First, edited by Bob."""\n', baseHash: hash });
    await staleDraft("second.py", '"""Typed into the deleted second.py."""\n');

    await expect(as(ann).rename({ from: "first.py", to: "second.py" })).resolves.toEqual({ path: "second.py" });

    expect([onDisk("first.py"), onDisk("second.py")]).toEqual([null, '"""First."""\n']);
    expect(await getDraft(db, bob.id, "second.py")).toMatchObject({ source: '"""First, edited by Bob."""\n', baseHash: hash });
    expect(await getDraft(db, bob.id, "first.py")).toBeNull();
  });

  it("drops the deleted file's draft when the renamed file has none, so it never shows as edits of the renamed file", async () => {
    lay("third.py", '"""Third."""\n');
    await staleDraft("fourth.py", '"""Typed into the deleted fourth.py."""\n');

    await as(ann).rename({ from: "third.py", to: "fourth.py" });

    expect(onDisk("fourth.py")).toBe('"""Third."""\n');
    expect(await getDraft(db, bob.id, "fourth.py")).toBeNull();
  });

  it("leaves every draft as it was when the rename is refused", async () => {
    const hash = lay("fifth.py", '"""Fifth."""\n');
    lay("sixth.py", '"""Sixth."""\n');
    await as(bob).putDraft({ path: "fifth.py", source: "fifth, edited", baseHash: hash });
    await as(ann).putDraft({ path: "sixth.py", source: "sixth, edited", baseHash: hash });

    await expect(as(ann).rename({ from: "fifth.py", to: "sixth.py" })).rejects.toThrow("sixth.py already exists; choose another name.");
    await expect(as(ann).rename({ from: "gone.py", to: "seventh.py" })).rejects.toThrow("There is no gone.py in the tool tree.");

    expect(await getDraft(db, bob.id, "fifth.py")).toMatchObject({ source: "fifth, edited" });
    expect(await getDraft(db, ann.id, "sixth.py")).toMatchObject({ source: "sixth, edited" });
  });
});

describe("a rename whose drafts cannot follow", () => {
  it("leaves the file under its old name, never moved without them", async () => {
    lay("eighth.py", '"""Eighth."""\n');
    const failing = renameFile(tree, "eighth.py", "ninth.py", async () => {
      throw new Error("the database went away");
    });
    await expect(failing).rejects.toThrow("the database went away");
    expect([onDisk("eighth.py"), onDisk("ninth.py")]).toEqual(['"""Eighth."""\n', null]);
  });
});

describe("moving drafts onto a name that holds some, on PostgreSQL", () => {
  const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
  it.skipIf(!databaseUrl)(`replaces them with the moved ones${databaseUrl ? "" : " (skipped: no DATABASE_URL)"}`, async () => {
    const pg = await openDatabase({ databaseUrl, dataDir: path.join(scratch, "pg") });
    const someone = `dev-rename-${randomUUID().slice(0, 8)}`;
    // Names of this run's own: a move touches every person's drafts of the two names.
    const [from, to] = [`${someone}_from.py`, `${someone}_to.py`];
    try {
      await putDraft(pg.db, someone, from, "the renamed file's edits", "a".repeat(64));
      await putDraft(pg.db, someone, to, "a deleted file's edits", "b".repeat(64));
      await moveDrafts(pg.db, from, to);
      expect(await getDraft(pg.db, someone, to)).toMatchObject({ source: "the renamed file's edits", baseHash: "a".repeat(64) });
      expect(await getDraft(pg.db, someone, from)).toBeNull();
    } finally {
      // The shared database outlives this file: what was made here goes.
      await pg.db.delete(drafts).where(eq(drafts.userId, someone));
      await pg.close();
    }
  });
});
