import { describe, expect, it } from "vitest";
import type { AgentDeclaration } from "@/server/agents/declaration";
import { fromDeclaration, localProblems, toDeclaration } from "./draft";

const base = {
  name: "triage",
  description: "",
  instructions: "",
  policy: { timeout_s: 25, output_cap: 20_000, dedupe: false, retry: 2, permission: "ALLOW" as const },
  tools: [],
};

const withModel = (model: AgentDeclaration["model"]): AgentDeclaration => ({ ...base, model });

describe("the agent page's model", () => {
  it("R-conn-reference: round-trips a connection's reference with its options, and leaves the model out for the connection's default", () => {
    const referenced = withModel({ connection: "local-ollama", model: "qwen3", temperature: 0.7, max_tokens: 800, reasoning_effort: "low" });
    expect(toDeclaration(fromDeclaration(referenced)).model).toEqual(referenced.model);
    const draft = fromDeclaration(withModel({ connection: "local-ollama" }));
    expect(toDeclaration(draft).model).toEqual({ connection: "local-ollama" });
  });

  it("R-conn-reference: sends the own settings when no connection is picked, and keeps them in the draft while one is", () => {
    const own = fromDeclaration(withModel({ provider: "openai-compatible", model: "qwen3", base_url: "http://127.0.0.1:11434/v1" }));
    expect(toDeclaration(own).model).toEqual({ provider: "openai-compatible", model: "qwen3", base_url: "http://127.0.0.1:11434/v1" });
    const switched = { ...own, model: { ...own.model, connection: "local-ollama" } };
    expect(toDeclaration(switched).model).toEqual({ connection: "local-ollama", model: "qwen3" });
    expect(switched.model.base_url).toBe("http://127.0.0.1:11434/v1");
  });

  it("R-conn-options: an empty option is left out, so the provider's default applies; a decimal temperature stays a number", () => {
    const draft = fromDeclaration(withModel({ connection: "openai" }));
    const typed = { ...draft, model: { ...draft.model, temperature: "0.25", max_tokens: "", reasoning_effort: "" as const } };
    expect(toDeclaration(typed).model).toEqual({ connection: "openai", temperature: 0.25 });
    expect(localProblems(typed)).toEqual([]);
  });

  it("R-conn-options: says at the field what a temperature or token count out of range should be", () => {
    const draft = fromDeclaration(withModel({ connection: "openai" }));
    const wrong = { ...draft, model: { ...draft.model, temperature: "3", max_tokens: "many" } };
    expect(localProblems(wrong).map((p) => p.path)).toEqual(["model.temperature", "model.max_tokens"]);
    expect(toDeclaration(wrong).model).toMatchObject({ temperature: 3, max_tokens: "many" });
  });
});
