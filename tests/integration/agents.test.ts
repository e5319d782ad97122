// Agents on PGlite over a real tool tree: every save a version, a stale save refused with the current declaration,
// export → import round trips with references only, an import names every problem, drift in the tree is reported
// per entry, and the tRPC router answers the builder's pages.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { agentVersions, user } from "@/db/schema";
import { agentSecretReferences } from "@/server/agents/references";
import { agentHistory, createAgent, deleteAgent, duplicateAgent, getAgent, listAgents, saveAgent, type Place } from "@/server/agents/store";
import { exportAgent, importAgent } from "@/server/agents/transfer";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { closeDatabase, getDb } from "@/server/db";
import { env } from "@/server/env";
import type { DomainError } from "@/server/errors";
import { closeAll } from "@/server/host";
import { createSecret } from "@/server/secrets/store";
import { createCallerFactory } from "@/server/trpc/init";
import { agentsRouter } from "@/server/trpc/routers/agents";
import { rewrite } from "./host/helpers";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-agents-"));
const tree = path.join(scratch, "tools");
fs.mkdirSync(tree);
const NOTES = `"""Notes kept one file per subject."""


def write(subject: str, body: str) -> str:
    """Write one note, replacing what the subject held.

    Args:
        subject: The note's name.
        body: The note.
    """
    return "ok"


def read(subject: str) -> str:
    """Read one note whole.

    Args:
        subject: The note's name.
    """
    return "text"
`;
fs.writeFileSync(path.join(tree, "notes.py"), NOTES);
fs.writeFileSync(
  path.join(tree, "tickets.py"),
  `"""Tickets in the tracker."""

from quiver import Secret

TITLE = "Tickets"


class Settings:
    """Credentials.

    Attributes:
        token: The tracker's token.
        project: Project key.
    """

    token: Secret
    project: str = "OPS"


def open(title: str, settings: Settings) -> str:
    """Open one ticket.

    Args:
        title: One line.
    """
    return "opened"


def close(number: int, settings: Settings) -> str:
    """Close one ticket.

    Args:
        number: The ticket.
    """
    return "closed"
`,
);
fs.mkdirSync(path.join(scratch, "hooks"));
fs.writeFileSync(path.join(scratch, "hooks", "tools.py"), `def check(call):\n    if call.name == "tickets__open" or call.name.startswith("notes__"):\n        return "ask"\n`);
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = tree;
process.env.QUIVER_SECRET_KEY = randomBytes(32).toString("hex");

const TOKEN_VALUE = "tkt_the_real_value_0123456789";
const ann = { id: "user-ann", email: "ann@quiver.test", name: "Ann", role: "builder" as const };
const bob = { id: "user-bob", email: "bob@quiver.test", name: "Bob", role: "builder" as const };
let db: Db;
let place: Place;

const triage = {
  name: "triage",
  instructions: "You sort incoming files.",
  model: { provider: "openai-compatible", model: "qwen3", base_url: "http://127.0.0.1:11434/v1", api_key: "${OLLAMA_KEY}" },
  tools: [
    { entry: "system:filesystem#list_directory,read_file", settings: { root: "inbox" } },
    { entry: "tools/tickets.py#tickets__open", settings: { token: "${TICKETS_TOKEN}" }, permissions: { tickets__open: "ASK" } },
  ],
};

beforeAll(async () => {
  db = await getDb();
  place = { tree: env().toolsDir, workspace: workspaceDir() };
  await db.insert(user).values([ann, bob].map((u) => ({ id: u.id, email: u.email, name: u.name, role: u.role })));
  await createSecret(db, "admin", { name: "OLLAMA_KEY", value: "ollama-key-value" });
  await createSecret(db, "admin", { name: "TICKETS_TOKEN", value: TOKEN_VALUE });
});

afterAll(async () => {
  await closeAll();
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("saving an agent", () => {
  it("makes every save a version: who, when, and what changed", async () => {
    const made = await createAgent(db, ann.id, triage, place);
    expect(made).toMatchObject({ name: "triage", version: 1, updatedByName: "Ann", drift: [] });
    const saved = await saveAgent(db, bob.id, { id: made.id, baseVersion: 1, declaration: { ...made.declaration, tools: [...made.declaration.tools, { entry: "system:web" }] } }, place);
    expect(saved).toMatchObject({ version: 2, updatedByName: "Bob" });
    const history = await agentHistory(db, made.id);
    expect(history.map((v) => [v.version, v.savedByName, v.summary])).toEqual([
      [2, "Bob", "Added system:web"],
      [1, "Ann", "Created"],
    ]);
    expect(history[0]!.savedAt).toBeInstanceOf(Date);
  });

  it("stores entries in canonical form", async () => {
    const [agent] = (await listAgents(db)).filter((a) => a.name === "triage");
    expect(agent!.entries).toEqual(["system:filesystem#read_file,list_directory", "tools/tickets.py#tickets__open", "system:web"]);
  });

  it("refuses a save based on an older version, with the current declaration, so two tabs never overwrite each other", async () => {
    const [agent] = (await listAgents(db)).filter((a) => a.name === "triage");
    const stale = saveAgent(db, ann.id, { id: agent!.id, baseVersion: 1, declaration: { ...triage, instructions: "Mine." } }, place);
    await expect(stale).rejects.toMatchObject({ kind: "CONFLICT", reason: "STALE_VERSION" });
    await expect(stale).rejects.toThrow(/Bob saved this agent \(version 2\) since you opened it/);
    const error = (await stale.catch((e: unknown) => e)) as DomainError;
    const current = error.details!.current as { version: number; declaration: { tools: unknown[] } };
    expect(current.version).toBe(2);
    expect(current.declaration.tools).toHaveLength(3);
    expect((await getAgent(db, agent!.id, place)).declaration.instructions).toBe("You sort incoming files.");
  });

  it("makes no version when nothing changed", async () => {
    const [agent] = (await listAgents(db)).filter((a) => a.name === "triage");
    const current = await getAgent(db, agent!.id, place);
    expect((await saveAgent(db, ann.id, { id: agent!.id, baseVersion: 2, declaration: current.declaration }, place)).version).toBe(2);
  });

  it("refuses an invalid declaration, naming every problem", async () => {
    const refused = createAgent(db, ann.id, { ...triage, name: "other", tools: [{ entry: "tools/notes.py#wirte" }, { entry: "tools/tickets.py", settings: { token: TOKEN_VALUE } }] }, place);
    await expect(refused).rejects.toMatchObject({
      kind: "BAD_REQUEST",
      reason: "INVALID_AGENT",
      details: { problems: [{ path: "tools[0].entry" }, { path: "tools[1].settings.token" }] },
    });
  });

  it("keeps names unique, case aside", async () => {
    await expect(createAgent(db, ann.id, { ...triage, name: "TRIAGE" }, place)).rejects.toMatchObject({
      details: { problems: [{ path: "name", message: "An agent named TRIAGE already exists; choose another name." }] },
    });
  });
});

describe("export and import", () => {
  it("exports references, never a secret's value, and imports back as a new agent", async () => {
    const [agent] = (await listAgents(db)).filter((a) => a.name === "triage");
    const exported = await exportAgent(db, agent!.id, place);
    expect(exported.filename).toBe("triage.agent.json");
    expect(exported.json).toContain('"token": "${TICKETS_TOKEN}"');
    expect(exported.json).toContain('"api_key": "${OLLAMA_KEY}"');
    expect(exported.json).not.toContain(TOKEN_VALUE);
    expect(exported.json).not.toContain("ollama-key-value");

    const imported = await importAgent(db, bob.id, exported.json, place);
    expect(imported.renamedFrom).toBe("triage");
    expect(imported.agent.name).toBe("triage 2");
    const original = await getAgent(db, agent!.id, place);
    expect({ ...imported.agent.declaration, name: "triage" }).toEqual(original.declaration);
    expect((await agentHistory(db, imported.agent.id))[0]!.summary).toBe("Imported (named triage in the file)");
  });

  it("names every problem of an import", async () => {
    const bad = {
      name: "bad",
      model: { provider: "openai", model: "gpt-4o", api_key: "sk-pasted-key" },
      tools: [
        { entry: "system:filesytem" },
        { entry: "tools/tickets.py", settings: { token: "${NO_SUCH_SECRET}" } },
        { entry: "system:filesystem", settings: { root: "../../etc" } },
        { entry: "tools/../x.py" },
      ],
    };
    const refused = (await importAgent(db, ann.id, JSON.stringify(bad), place).catch((e: unknown) => e)) as DomainError;
    const problems = refused.details!.problems as { path: string; message: string }[];
    expect(problems.map((p) => p.path)).toEqual(["model.api_key", "tools[0].entry", "tools[1].settings.token", "tools[2].settings.root", "tools[3].entry"]);
    expect(problems[0]!.message).toMatch(/never written here/);
    expect(problems[1]!.message).toMatch(/Did you mean system:filesystem\?/);
  });

  it("refuses a file that is not JSON with a sentence", async () => {
    await expect(importAgent(db, ann.id, "{ nope", place)).rejects.toThrow(/This is not JSON/);
  });
});

describe("drift: what changed in the sources since the save", () => {
  it("reports renamed, changed, removed and new operations per entry", async () => {
    const made = await createAgent(db, ann.id, { ...triage, name: "drifty", tools: [{ entry: "tools/notes.py" }, { entry: "tools/tickets.py#tickets__close", settings: { token: "${TICKETS_TOKEN}" } }] }, place);
    expect(made.drift).toEqual([]);
    // write → save with the same description and inputs, read's description reworded, a new list, close removed.
    rewrite(
      path.join(tree, "notes.py"),
      NOTES.replace("def write(", "def save(").replace("Read one note whole.", "Read one note, whole.") +
        `\n\ndef list() -> str:\n    """List the subjects."""\n    return ""\n`,
    );
    rewrite(path.join(tree, "tickets.py"), fs.readFileSync(path.join(tree, "tickets.py"), "utf8").replace(/\ndef close[\s\S]*$/, "\n"));
    const agent = await getAgent(db, made.id, place);
    expect(agent.drift).toEqual([
      {
        index: 0,
        entry: "tools/notes.py",
        changes: [
          { kind: "renamed", operation: "notes__write", to: "notes__save", message: "notes__write is now called notes__save." },
          { kind: "changed", operation: "notes__read", message: "notes__read changed its description." },
          { kind: "added", operation: "notes__list", message: "notes__list is new in tools/notes.py, and the agent is offered it (the entry is not narrowed)." },
        ],
      },
      { index: 1, entry: "tools/tickets.py#tickets__close", changes: [{ kind: "removed", operation: "tickets__close", message: "tickets__close is no longer in tools/tickets.py." }] },
    ]);
  });

  it("clears when the builder saves the agent again, accepting the changes", async () => {
    const [listed] = (await listAgents(db)).filter((a) => a.name === "drifty");
    const agent = await getAgent(db, listed!.id, place);
    const declaration = { ...agent.declaration, tools: [agent.declaration.tools[0]!] };
    const saved = await saveAgent(db, ann.id, { id: agent.id, baseVersion: agent.version, declaration }, place);
    expect(saved.drift).toEqual([]);
  });
});

describe("duplicate, delete and references", () => {
  it("duplicates under a free name with its own history", async () => {
    const [agent] = (await listAgents(db)).filter((a) => a.name === "triage");
    const copy = await duplicateAgent(db, bob.id, agent!.id, place);
    expect(copy).toMatchObject({ name: "triage copy", version: 1 });
    expect((await agentHistory(db, copy.id)).map((v) => v.summary)).toEqual(["Duplicated from triage"]);
  });

  it("lists the agents that use a secret, for the secret store's references", async () => {
    const found = await agentSecretReferences(db, "TICKETS_TOKEN");
    expect(found.map((f) => f.reference.label).sort()).toEqual(["the agent “triage 2”", "the agent “triage copy”", "the agent “triage”"]);
    expect(found[0]!.reference.href).toMatch(/^\/agents\/[0-9a-f-]{36}$/);
  });

  it("deletes an agent with its versions", async () => {
    const [agent] = (await listAgents(db)).filter((a) => a.name === "triage copy");
    expect(await deleteAgent(db, ann.id, agent!.id)).toEqual({ id: agent!.id, name: "triage copy" });
    expect((await db.select().from(agentVersions)).some((v) => v.agentId === agent!.id)).toBe(false);
    await expect(getAgent(db, agent!.id, place)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });
});

describe("the agents router", () => {
  const api = () => createCallerFactory(agentsRouter)({ headers: new Headers(), user: ann });

  it("lists the sources: built-ins and the tree's files, the vocabulary and the call hook", async () => {
    const answer = await api().sources();
    expect(answer.treeError).toBeNull();
    expect(answer.sources.map((s) => s.entry)).toEqual(expect.arrayContaining(["system:filesystem", "system:compute", "tools/notes.py", "tools/tickets.py"]));
    const tickets = answer.sources.find((s) => s.entry === "tools/tickets.py")!;
    expect(tickets).toMatchObject({ kind: "tree", title: "Tickets", offered: true });
    expect(tickets.settings_schema!.properties).toHaveProperty("token");
    expect(answer.hook).toMatchObject({ present: true, path: "hooks/tools.py" });
    const governs = answer.hook.governs as string[];
    expect(governs).toContain("tickets__open");
    expect(governs.every((name) => name === "tickets__open" || name.startsWith("notes__"))).toBe(true);
  });

  it("shows the model view of unsaved entries", async () => {
    const view = await api().modelView({ entries: ["tools/tickets.py#tickets__open", "system:web"] });
    expect(view.tools.map((t) => t.name)).toEqual(["tickets__open", "fetch_url"]);
    expect(JSON.stringify(view)).not.toContain("token");
  });

  it("validates without saving", async () => {
    expect((await api().validate({ declaration: { ...triage, name: "new one" } })).problems).toEqual([]);
    const answer = await api().validate({ declaration: { ...triage, tools: [{ entry: "system:bash", settings: { x: 1 } }] } });
    expect(answer.problems.map((p) => p.path)).toEqual(["tools[0].settings", "name"]);
  });

  it("answers a stale save as CONFLICT with the current version in its details", async () => {
    const [agent] = (await api().list()).filter((a) => a.name === "triage");
    const err = await api()
      .save({ id: agent!.id, baseVersion: 1, declaration: triage })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("CONFLICT");
  });

  it("searches by need", async () => {
    const hits = await api().search({ query: "file.write" });
    expect(hits.flatMap((h) => h.operations.map((o) => o.name))).toEqual(expect.arrayContaining(["write_file", "edit_file"]));
  });
});
