import { describe, expect, it } from "vitest";
import { modelView } from "@/server/agents/model-view";
import { fromTree } from "@/server/catalog/sources";
import { treeFile } from "@/server/catalog/testing/sources";
import { providerTool, withBuiltIns } from "./provider-tools";

const search = treeFile("search.py", [{ name: "web_search" }], { kind: "module" });
search.tools[0]!.behaviour = { ...search.tools[0]!.behaviour, built_in: { id: "openai.web_search", args: { searchContextSize: "low" } } };
const notes = treeFile("notes.py", [{ name: "notes__read" }]);

describe("a BUILT_IN tool for each provider", () => {
  it("R-builtin-provider: a provider that runs the tool gets it as its own, with its args", () => {
    expect(providerTool("openai", "web_search", { id: "openai.web_search", args: { searchContextSize: "low" } })).toEqual({
      type: "provider",
      id: "openai.web_search",
      name: "web_search",
      args: { searchContextSize: "low" },
    });
    expect(providerTool("anthropic", "search", { id: "anthropic.web_search_20250305", args: {} })).toMatchObject({ type: "provider", id: "anthropic.web_search_20250305" });
  });

  it("R-builtin-withheld: another provider's tool, a tool the client must run, and any on an OpenAI-compatible server are withheld with why", () => {
    expect(providerTool("anthropic", "web_search", { id: "openai.web_search", args: {} })).toBe(
      "web_search is a tool the model's provider runs (BUILT_IN), so it is withheld: openai.web_search is OpenAI's, and this agent's model is on Anthropic, which has no such tool.",
    );
    expect(providerTool("openai", "shell", { id: "openai.local_shell", args: {} })).toBe(
      "shell is a tool the model's provider runs (BUILT_IN), so it is withheld: openai.local_shell is not a tool a provider the studio knows runs on its own side, and this agent's model is on OpenAI.",
    );
    expect(typeof providerTool("openai-compatible", "web_search", { id: "openai.web_search", args: {} })).toBe("string");
  });

  it("R-builtin-withheld: the builder's view leaves a withheld tool out, with its sentence on its entry", () => {
    const entries = ["tools/notes.py", "tools/search.py"];
    const view = modelView(entries, fromTree([notes, search]));
    expect(view.tools.map((t) => t.name)).toEqual(["notes__read", "web_search"]);
    expect(withBuiltIns(view, entries, [notes, search], "openai")).toEqual(view);
    const withheld = withBuiltIns(view, entries, [notes, search], "anthropic");
    expect(withheld.tools.map((t) => t.name)).toEqual(["notes__read"]);
    expect(withheld.problems).toEqual([{ index: 1, message: expect.stringContaining("openai.web_search is OpenAI's, and this agent's model is on Anthropic") }]);
  });
});
