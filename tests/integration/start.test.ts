// A guided start: every file of templates/ is a declaration naming only sources the studio's own tree and built-ins
// have; a template becomes an agent with the studio's first model connection; one naming a tool the tree lacks is
// still made and says what is missing; and home's checklist follows what the database holds.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { audit, modelConnections, runs, user } from "@/db/schema";
import { getAgent, type Place } from "@/server/agents/store";
import { closeDatabase, getDb } from "@/server/db";
import { closeAll } from "@/server/host";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { checklist } from "@/server/start/checklist";
import { createFromTemplate } from "@/server/templates/create";
import { templateGallery } from "@/server/templates/gallery";
import { LOCAL_MODEL } from "@/server/templates/model";
import { readTemplates, templatesDir } from "@/server/templates/templates";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-start-"));
// The studio's own tree, copied so the tool host never writes beside the checkout's files.
const tree = path.join(scratch, "tools");
fs.cpSync("tools", tree, { recursive: true, filter: (src) => !src.includes("__pycache__") });
// The same tree without tickets.py: the support helper's tool is missing there.
const lacking = path.join(scratch, "lacking", "tools");
fs.cpSync(tree, lacking, { recursive: true, filter: (src) => !src.endsWith("tickets.py") });
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = tree;
process.env.QUIVER_SECRET_KEY = randomBytes(32).toString("hex");

const owner = { id: "user-owner", email: "owner@quiver.test", name: "Owner", role: "admin" as const };
let db: Db;
let place: Place;

beforeAll(async () => {
  db = await getDb();
  place = { tree, workspace: workspaceDir() };
  await db.insert(user).values(owner);
});

afterAll(async () => {
  await closeAll();
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the templates in the repository", () => {
  it("R-template-file: there are five or more, each a declaration without a model, with a one-line purpose", async () => {
    const files = await readTemplates(templatesDir());
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      expect(file.problems, file.id).toEqual([]);
      expect(file.template!.declaration.description, file.id).toMatch(/^[^\n]{10,200}$/);
    }
  });

  it("R-template-file: every template names only sources this studio has, each narrowed to operations they offer", async () => {
    const { templates, broken } = await templateGallery(tree, templatesDir());
    expect(broken).toEqual([]);
    for (const template of templates) {
      expect(template.uses.filter((use) => use.missing).map((use) => use.missing), template.id).toEqual([]);
    }
  });
});

describe("making an agent from a template", () => {
  it("R-template-model: without a model connection, the agent gets the local server New agent always gave", async () => {
    const made = await createFromTemplate(db, owner.id, "web-researcher", place);
    const agent = await getAgent(db, made.id, place);
    expect(agent.declaration.model).toMatchObject(LOCAL_MODEL);
    expect(agent.declaration.tools.map((t) => t.entry)).toEqual(["system:web", "system:planning"]);
    expect(made.problems).toEqual([]);
  });

  it("R-template-model: with connections, the agent gets the first one made, with its default model", async () => {
    await db.insert(modelConnections).values([
      { name: "first-conn", provider: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1", defaultModel: "small", models: null, createdBy: owner.id, updatedBy: owner.id, createdAt: new Date(Date.now() - 60_000) },
      { name: "second-conn", provider: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1", defaultModel: "large", models: null, createdBy: owner.id, updatedBy: owner.id },
    ]);
    const made = await createFromTemplate(db, owner.id, "note-keeper", place);
    const agent = await getAgent(db, made.id, place);
    expect(agent.declaration.model).toMatchObject({ connection: "first-conn", model: "small" });
    expect(agent.name).toBe("Note keeper");
    // A second one takes the next free name rather than failing.
    expect((await createFromTemplate(db, owner.id, "note-keeper", place)).name).toBe("Note keeper 2");
  });

  it("R-template-missing: a secret to pick does not stop it; the problems say what to resolve", async () => {
    const made = await createFromTemplate(db, owner.id, "support-helper", place);
    expect(made.problems).toEqual([expect.objectContaining({ path: "tools[0].settings.token", message: expect.stringMatching(/^Pick the secret for token/) })]);
    expect((await getAgent(db, made.id, place)).declaration.tools[0]!.permissions).toEqual({ tickets__open: "ASK" });
  });

  it("R-template-missing: a tool the tree lacks is named on its card, and the agent is still made, saying which", async () => {
    const gallery = await templateGallery(lacking, templatesDir());
    const card = gallery.templates.find((t) => t.id === "support-helper")!;
    expect(card.uses[0]).toMatchObject({ entry: "tools/tickets.py", missing: expect.stringMatching(/no file tools\/tickets\.py in the tree/) });
    const made = await createFromTemplate(db, owner.id, "support-helper", { ...place, tree: lacking });
    expect(made.problems.map((p) => p.message).join(" ")).toMatch(/no file tools\/tickets\.py in the tree/);
    const agent = await getAgent(db, made.id, { ...place, tree: lacking });
    expect(agent.declaration.tools.map((t) => t.entry)).toEqual(["tools/tickets.py", "system:ask_user"]);
  });

  it("R-template-file: a broken template file is not offered and says why; one with a model is refused", async () => {
    const dir = path.join(scratch, "broken-templates");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "cut-off.json"), '{"name": "Cut', "utf8");
    fs.writeFileSync(path.join(dir, "with-model.json"), JSON.stringify({ name: "M", description: "One line.", model: { connection: "x" } }));
    fs.writeFileSync(path.join(dir, "two-lines.json"), JSON.stringify({ name: "T", description: "One\ntwo" }));
    const { templates, broken } = await templateGallery(tree, dir);
    expect(templates).toEqual([]);
    expect(Object.fromEntries(broken.map((b) => [b.id, b.problems[0]!.message]))).toEqual({
      "cut-off": expect.stringMatching(/not JSON/),
      "two-lines": expect.stringMatching(/one line/),
      "with-model": expect.stringMatching(/names no model/),
    });
    await expect(createFromTemplate(db, owner.id, "two-lines", place, dir)).rejects.toMatchObject({ reason: "BAD_TEMPLATE" });
    await expect(createFromTemplate(db, owner.id, "no-such", place, dir)).rejects.toMatchObject({ reason: "NO_SUCH_TEMPLATE" });
  });
});

describe("home's checklist", () => {
  it("R-start-steps: each role sees its steps, done by what the studio holds, and it is done when all of them are", async () => {
    // By now the studio holds connections and agents (above), but no run, one person and no tool of anyone's.
    const before = await checklist(db, owner);
    expect(Object.fromEntries(before.steps.map((s) => [s.id, s.done]))).toEqual({
      "connect-model": true,
      "first-agent": true,
      "first-run": false,
      "invite-team": false,
      "first-tool": false,
    });
    expect(before.done).toBe(false);
    const builder = await checklist(db, { role: "builder" });
    expect(builder.steps.map((s) => s.id)).toEqual(["first-agent", "first-run"]);
    expect(builder.steps[1]!.href).toMatch(/^\/agents\/[0-9a-f-]{36}\/run$/);

    const made = await createFromTemplate(db, owner.id, null, place);
    await db.insert(runs).values({ agentId: made.id, agentVersion: 1, declaration: {}, startedBy: owner.id, status: "failed" });
    expect((await checklist(db, { role: "builder" })).done).toBe(false);
    await db.insert(runs).values({ agentId: made.id, agentVersion: 1, declaration: {}, startedBy: owner.id, status: "done" });
    expect((await checklist(db, { role: "builder" })).done).toBe(true);

    await db.insert(user).values({ id: "user-dev", email: "dev@quiver.test", name: "Dev", role: "developer" });
    // The studio's own rows never count as a person's tool.
    await db.insert(audit).values({ actor: "studio", action: "tool_file.saved", target: "notes.py" });
    expect((await checklist(db, owner)).steps.find((s) => s.id === "first-tool")!.done).toBe(false);
    await db.insert(audit).values({ actor: "user-dev", action: "tool_file.saved", target: "notes.py" });
    const after = await checklist(db, owner);
    expect(after.steps.every((s) => s.done)).toBe(true);
    expect(after.done).toBe(true);
  });
});
