// Each person's theme through tRPC on the studio's PGlite: "system" until chosen, kept per user, replaced on the
// next choice, and anything but the three names refused at the edge (R-theme-per-user).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-theme-"));
fs.mkdirSync(path.join(scratch, "tools"));
// Before anything reads the configuration: this test's own data folder.
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = path.join(scratch, "tools");
process.env.DATABASE_URL = "";

const ANN = { id: "user-ann", email: "ann@quiver.test", name: "Ann", role: "builder" as const };
const BOB = { id: "user-bob", email: "bob@quiver.test", name: "Bob", role: "admin" as const };

async function as(person: typeof ANN | typeof BOB) {
  const { createCallerFactory } = await import("@/server/trpc/init");
  const { accountRouter } = await import("@/server/trpc/routers/account");
  return createCallerFactory(accountRouter)({ headers: new Headers(), user: person });
}

beforeAll(async () => {
  const { getDb } = await import("@/server/db");
  const { user } = await import("@/db/schema");
  await (await getDb()).insert(user).values([ANN, BOB]);
});

afterAll(async () => {
  const { closeDatabase } = await import("@/server/db");
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("a person's theme", () => {
  it("R-theme-per-user: is system until chosen, then kept for that person alone and replaced by the next choice", async () => {
    const ann = await as(ANN);
    const bob = await as(BOB);
    expect(await ann.preferences()).toEqual({ theme: "system" });
    expect(await ann.setTheme({ theme: "dark" })).toEqual({ theme: "dark" });
    expect(await ann.preferences()).toEqual({ theme: "dark" });
    expect(await bob.preferences()).toEqual({ theme: "system" });
    await ann.setTheme({ theme: "light" });
    expect(await ann.preferences()).toEqual({ theme: "light" });
  });

  it("R-theme-per-user: refuses a theme it does not know, with a sentence naming the field", async () => {
    const ann = await as(ANN);
    const refused = await ann.setTheme({ theme: "solarized" as never }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe("BAD_REQUEST");
    expect((refused as TRPCError).message).toMatch(/theme/);
    expect(await ann.preferences()).toEqual({ theme: "light" });
  });
});
