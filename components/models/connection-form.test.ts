import { describe, expect, it } from "vitest";
import { draftOf, emptyForm, formOf, inputOf, localProblems, suggestedName, withModels } from "./connection-form";
import type { Connection } from "./types";

const row = {
  name: "local-ollama",
  provider: "openai-compatible",
  baseUrl: "http://127.0.0.1:11434/v1",
  apiKey: null,
  defaultModel: "qwen3",
  models: null,
  usedBy: [],
  updatedAt: "2026-12-01T00:00:00.000Z",
} as unknown as Connection;

describe("the connection form", () => {
  it("R-conn-shape: reads a saved connection back and sends it as it was, every model on offer as null", () => {
    const form = formOf(row);
    expect(form.offer).toBe("all");
    expect(inputOf(form)).toEqual({ name: "local-ollama", provider: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", apiKey: null, defaultModel: "qwen3", models: null });
  });

  it("R-conn-shape: sends only the ticked models when only these are on offer, and Test gets the form without them", () => {
    const form = { ...formOf(row), offer: "only" as const, models: ["qwen3", "llama3.2"], apiKey: "${OLLAMA_KEY}" };
    expect(inputOf(form).models).toEqual(["qwen3", "llama3.2"]);
    expect(draftOf(form)).toEqual({ provider: "openai-compatible", baseUrl: "http://127.0.0.1:11434/v1", apiKey: "${OLLAMA_KEY}", defaultModel: "qwen3" });
  });

  it("R-conn-shape: sends an emptied address, key or default model as cleared, and Test leaves them out", () => {
    const form = { ...emptyForm(), name: " openai ", provider: "openai" as const, baseUrl: "  " };
    expect(inputOf(form)).toEqual({ name: "openai", provider: "openai", baseUrl: null, apiKey: null, defaultModel: null, models: null });
    expect(draftOf(form)).toEqual({ provider: "openai" });
  });

  it("R-conn-shape: says at once what is missing: a name, a local server's address, a model when only some are offered", () => {
    const problems = localProblems({ ...emptyForm(), offer: "only" });
    expect(problems.map((p) => p.field)).toEqual(["name", "baseUrl", "models"]);
    expect(localProblems({ ...emptyForm(), name: "openai", provider: "openai" })).toEqual([]);
  });

  it("R-conn-shape: adds typed model ids once each, split on commas and spaces", () => {
    expect(withModels(["qwen3"], "qwen3, llama3.2  mistral")).toEqual(["qwen3", "llama3.2", "mistral"]);
    expect(withModels([], "   ")).toEqual([]);
  });

  it("R-conn-shape: suggests a connection name in the form names take, from an agent's own provider and address", () => {
    expect(suggestedName("openai-compatible", "http://127.0.0.1:11434/v1")).toBe("local-127-0-0-1");
    expect(suggestedName("openai", null)).toBe("openai");
    expect(suggestedName("openai-compatible", "not an address")).toBe("local-server");
  });
});
