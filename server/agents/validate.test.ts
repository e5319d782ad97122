import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sampleSources } from "@/server/catalog/testing/sources";
import { validateDeclaration, type ValidationContext } from "./validate";

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-workspace-"));
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

const ctx: ValidationContext = { sources: sampleSources(), treeError: null, secretNames: new Set(["OPENAI_KEY", "TICKETS_TOKEN"]), workspace };

const base = { name: "triage", model: { provider: "openai", model: "gpt-4o-mini", api_key: "${OPENAI_KEY}" } };
const withTools = (...tools: unknown[]) => ({ ...base, tools });
const problems = (input: unknown) => validateDeclaration(input, ctx).problems;

describe("a valid declaration", () => {
  it("passes, with its defaults filled and its entries canonical", () => {
    const v = validateDeclaration(withTools({ entry: " system:filesystem#list_directory,read_file ", settings: { root: "inbox" } }), ctx);
    expect(v.problems).toEqual([]);
    expect(v.declaration!.policy).toEqual({ timeout_s: 25, output_cap: 20000, dedupe: false, retry: 2, permission: "ALLOW" });
    expect(v.declaration!.tools[0]).toEqual({ entry: "system:filesystem#read_file,list_directory", settings: { root: "inbox" }, permissions: {} });
    expect(v.operations[0]!.map((op) => op.name)).toEqual(["read_file", "list_directory"]);
  });
});

describe("every problem is named with its path", () => {
  it("names problems in several places at once", () => {
    const found = problems(
      withTools(
        { entry: "system:filesytem" },
        { entry: "tools/tickets.py", settings: { token: "tkt_live_0123456789abcdef", limit: 0, projet: "X" } },
        { entry: "system:web", permissions: { fetch_ur: "ASK" } },
      ),
    );
    expect(found.map((p) => p.path)).toEqual(["tools[0].entry", "tools[1].settings.projet", "tools[1].settings.token", "tools[1].settings.limit", "tools[2].permissions.fetch_ur"]);
    expect(found[0]!.message).toMatch(/Did you mean system:filesystem\?/);
    expect(found[1]!.message).toBe("Tickets has no setting projet. Did you mean project?");
    expect(found[3]!.message).toBe("Write a number of at least 1.");
    expect(found[4]!.message).toMatch(/Did you mean fetch_url\?/);
  });

  it("names shape problems and still checks the entries (an import names every problem)", () => {
    const found = problems({ name: "", model: { provider: "mistral", model: "x" }, colour: "red", tools: [{ entry: "system:nope" }] });
    expect(found.map((p) => p.path).sort()).toEqual(["colour", "model.provider", "name", "tools[0].entry"]);
    expect(found.find((p) => p.path === "colour")!.message).toMatch(/colour is not part of an agent's declaration/);
  });

  it("refuses a settings value a source's model does not accept (Ajv)", () => {
    expect(problems(withTools({ entry: "system:filesystem", settings: { max_read_bytes: "lots" } }))).toEqual([
      { path: "tools[0].settings.max_read_bytes", message: "Write an integer here." },
    ]);
  });

  it("refuses settings for a source that has none", () => {
    expect(problems(withTools({ entry: "system:planning", settings: { x: 1 } }))[0]!.message).toBe("Planning has nothing to set; remove these settings.");
  });

  it("asks for a required setting", () => {
    expect(problems(withTools({ entry: "tools/tickets.py" }))).toEqual([{ path: "tools[0].settings.token", message: "Pick the secret for token." }]);
  });

  it("refuses a permission for an operation the narrowing left out", () => {
    const found = problems(withTools({ entry: "system:filesystem#read_file", permissions: { write_file: "DENY" } }));
    expect(found[0]).toEqual({
      path: "tools[0].permissions.write_file",
      message: "write_file is not among the operations this entry gives the agent (read_file); remove its approval or add the operation.",
    });
  });

  it("refuses two entries offering one name", () => {
    expect(problems(withTools({ entry: "system:web" }, { entry: "system:web#fetch_url" }))[0]!.message).toMatch(/listed twice/);
  });

  it("says a tree entry cannot be checked while the tool host cannot read the tree", () => {
    const v = validateDeclaration(withTools({ entry: "tools/notes.py" }), { ...ctx, sources: ctx.sources.filter((s) => s.kind === "system"), treeError: "it crashed" });
    expect(v.problems).toEqual([{ path: "tools[0].entry", message: "tools/notes.py cannot be checked: it crashed" }]);
  });
});

describe("secrets are picked by name, never written", () => {
  it("refuses a literal value in a secret field with a sentence", () => {
    const [p] = problems(withTools({ entry: "tools/tickets.py", settings: { token: "tkt_live_0123456789abcdef" } }));
    expect(p).toEqual({
      path: "tools[0].settings.token",
      message: "token is a secret, so its value is never written here: save it in Settings → Secrets and pick it by name (it is stored as ${NAME}).",
    });
  });

  it("refuses a reference to a secret that does not exist", () => {
    expect(problems(withTools({ entry: "tools/tickets.py", settings: { token: "${TICKETS_TOKNE}" } }))[0]!.message).toMatch(/There is no secret named TICKETS_TOKNE/);
  });

  it("accepts a reference to one that does", () => {
    expect(problems(withTools({ entry: "tools/tickets.py", settings: { token: "${TICKETS_TOKEN}" } }))).toEqual([]);
  });

  it("refuses a model key written as a literal, and one naming no secret", () => {
    expect(problems({ ...base, model: { ...base.model, api_key: "sk-live-123" } })[0]!.message).toMatch(/An API key is never written here/);
    expect(problems({ ...base, model: { ...base.model, api_key: "${NOPE}" } })[0]!.message).toMatch(/There is no secret named NOPE/);
  });

  it("needs a key for OpenAI and Anthropic, and an address for an OpenAI-compatible server", () => {
    expect(problems({ name: "a", model: { provider: "anthropic", model: "claude" } })[0]).toEqual({
      path: "model.api_key",
      message: "Pick the secret that holds your Anthropic API key.",
    });
    expect(problems({ name: "a", model: { provider: "openai-compatible", model: "qwen3" } })).toEqual([
      { path: "model.base_url", message: "An OpenAI-compatible server needs its address, e.g. http://127.0.0.1:11434/v1." },
    ]);
  });
});

describe("a root is a folder of the studio's workspace", () => {
  it.each([
    ["../outside", /climbs out of the workspace/],
    ["/etc", /absolute path/],
    ["inbox/../../x", /climbs out/],
  ])("refuses %s", (root, why) => {
    expect(problems(withTools({ entry: "system:filesystem", settings: { root } }))[0]!.message).toMatch(why);
  });

  it("refuses a link inside the workspace that leads out of it", () => {
    fs.symlinkSync(os.tmpdir(), path.join(workspace, "escape"));
    expect(problems(withTools({ entry: "system:filesystem", settings: { root: "escape" } }))[0]!.message).toMatch(/link that leads out/);
  });

  it("accepts a relative folder, existing or not", () => {
    expect(problems(withTools({ entry: "system:filesystem", settings: { root: "reports/2024" } }))).toEqual([]);
    expect(problems(withTools({ entry: "system:filesystem", settings: { root: "." } }))).toEqual([]);
  });
});
