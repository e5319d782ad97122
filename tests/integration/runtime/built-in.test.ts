// A module with BUILT_IN = True (R-builtin-provider, R-builtin-withheld), through the real tool host, catalog and
// loop: on an OpenAI model the request carries the provider's own web search tool (the loopback Responses server
// sees it), a search the provider ran itself is not run again here, and execute() is never called; on an
// OpenAI-compatible server, which has no tools of its own, the tool is withheld and the run says why.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSecret } from "@/server/secrets/store";
import { offeredTools, text } from "@/tests/support/loopback-model";
import { startLoopbackResponses, type LoopbackResponses } from "@/tests/support/loopback-responses";
import { dataOf, studio, type Studio } from "./setup";

const SEARCH = `import os

BUILT_IN = True

SCHEMA = {"type": "openai.web_search", "name": "web_search", "description": "Search the web.",
          "args": {"searchContextSize": "low"}}


async def execute(args, ctx):
    open(os.path.join(os.path.dirname(__file__), "ran.txt"), "w").write("ran")
    return "must not run"
`;

const ECHO = `def echo(text: str) -> str:
    """Say it back."""
    return text
`;

let s: Studio;
let responses: LoopbackResponses;
const ran = () => fs.existsSync(path.join(s.tree, "ran.txt"));

beforeAll(async () => {
  s = await studio("built-in", { "search.py": SEARCH, "box.py": ECHO });
  responses = await startLoopbackResponses();
  await createSecret(s.database.db, "admin", { name: "OPENAI_LOOP_KEY", value: "sk-loopback-key-0001" });
});
beforeEach(() => s.model.reset());
afterAll(async () => {
  await responses?.close();
  await s?.close();
});

describe("a BUILT_IN module", () => {
  it("R-builtin-provider: on OpenAI the request carries the provider's tool, and nothing here runs it", async () => {
    const agent = await s.agent({
      model: { provider: "openai", model: "gpt-loopback", base_url: responses.url, api_key: "${OPENAI_LOOP_KEY}" },
      tools: [{ entry: "tools/box.py" }, { entry: "tools/search.py" }],
    });
    responses.reply({ text: "Found it.", searched: "quiver release date" });
    const runId = await s.run(agent);
    const [request] = responses.requests;
    expect(request!.body.tools).toEqual([
      expect.objectContaining({ type: "function", name: "box__echo" }),
      { type: "web_search", search_context_size: "low" },
    ]);
    const events = await s.events(runId);
    expect(dataOf(events, "status").at(-1)).toMatchObject({ status: "done" });
    expect(dataOf(events, "tool_call")).toEqual([]);
    expect(dataOf(events, "message").at(-1)).toMatchObject({ role: "assistant", text: "Found it.", calls: [] });
    const started = dataOf(events, "run_started")[0]!;
    expect(started.operations.find((op) => op.name === "web_search")?.provider).toMatchObject({ type: "provider", id: "openai.web_search" });
    expect(started.problems).toEqual([]);
    expect(ran()).toBe(false);
  });

  it("R-builtin-withheld: on a server with no tools of its own the tool is withheld, with why", async () => {
    const agent = await s.agent({ tools: [{ entry: "tools/box.py" }, { entry: "tools/search.py" }] });
    s.model.reply(text("Without search."));
    const runId = await s.run(agent);
    expect(offeredTools(s.model.requests.at(-1)!)).toEqual(["box__echo"]);
    const started = dataOf(await s.events(runId), "run_started")[0]!;
    expect(started.problems).toEqual([
      "tools[1] (tools/search.py): web_search is a tool the model's provider runs (BUILT_IN), so it is withheld: openai.web_search is OpenAI's, and this agent's model is on an OpenAI-compatible server, which has no such tool.",
    ]);
    expect(started.operations.map((op) => op.name)).toEqual(["box__echo"]);
    expect(ran()).toBe(false);
  });
});
