import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sampleSources } from "@/server/catalog/testing/sources";
import type { ConnectionFacts } from "./connections";
import { declarationSchema, parseDeclaration } from "./declaration";
import { summarizeChange } from "./diff";
import { validateDeclaration, type ValidationContext } from "./validate";

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-workspace-"));
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

const connections = new Map<string, ConnectionFacts>([
  ["local-ollama", { provider: "openai-compatible", defaultModel: "qwen3", models: null }],
  ["picked", { provider: "openai", defaultModel: null, models: ["gpt-4o-mini", "gpt-4o"] }],
]);
const ctx: ValidationContext = { sources: sampleSources(), treeError: null, secretNames: new Set(["OPENAI_KEY"]), workspace, connections };
const problems = (model: unknown) => validateDeclaration({ name: "triage", model }, ctx).problems;
const shape = (model: unknown) => parseDeclaration({ name: "triage", model }).problems;

describe("R-conn-reference: the model's two forms", () => {
  it("R-conn-reference: takes a connection with or without a model, and the inline form as before", () => {
    expect(problems({ connection: "local-ollama" })).toEqual([]);
    expect(problems({ connection: "picked", model: "gpt-4o", temperature: 0, max_tokens: 200_000, reasoning_effort: "high" })).toEqual([]);
    expect(problems({ provider: "openai", model: "gpt-4o-mini", api_key: "${OPENAI_KEY}", temperature: 2 })).toEqual([]);
  });

  it("R-conn-reference: tells a wrong shape in the words of the form it was written in", () => {
    expect(shape({ connection: "local-ollama", provider: "openai" })).toEqual([
      { path: "model.provider", message: "provider is not part of model; remove it or check its spelling." },
    ]);
    expect(shape({ provider: "openai" })).toEqual([{ path: "model.model", message: "Name the model, e.g. gpt-4o-mini." }]);
    expect(shape("gpt-4o")).toEqual([
      { path: "model", message: "The model is an object: either a connection and a model, or a provider, a model and the server's address where the provider needs one." },
    ]);
  });

  it("R-conn-name: a connection's name is lower-case letters, digits and dashes", () => {
    expect(shape({ connection: "Local_Ollama" })[0]).toEqual({
      path: "model.connection",
      message: "Write the connection's name: lower-case letters, digits and dashes, at most 63 characters, starting and ending with a letter or digit, e.g. local-ollama.",
    });
    expect(shape({ connection: "a".repeat(64) })).toHaveLength(1);
    expect(shape({ connection: "-box" })).toHaveLength(1);
    expect(shape({ connection: "box-9" })).toEqual([]);
  });

  it("R-conn-options: says what to write for an option out of range", () => {
    expect(shape({ connection: "local-ollama", temperature: -0.1, max_tokens: 0 })).toEqual([
      { path: "model.temperature", message: "Write a temperature of at least 0." },
      { path: "model.max_tokens", message: "Write at least 1 output token." },
    ]);
    expect(shape({ connection: "local-ollama", max_tokens: 200_001, temperature: "warm" })).toEqual([
      { path: "model.temperature", message: "Write the temperature as a number from 0 to 2, e.g. 0.7." },
      { path: "model.max_tokens", message: "Write at most 200000 output tokens." },
    ]);
  });

  it("R-conn-reference: an unknown connection, a model off its list and no default are each a sentence", () => {
    expect(problems({ connection: "local-olama" })[0]!.message).toMatch(/^There is no model connection named local-olama; .* Settings → Models\. Did you mean local-ollama\?$/);
    expect(problems({ connection: "picked", model: "o3" })).toEqual([
      { path: "model.model", message: "The connection picked offers gpt-4o-mini, gpt-4o, not o3; pick one of them, or ask an admin to add o3 to the connection in Settings → Models." },
    ]);
    expect(problems({ connection: "picked" })).toEqual([{ path: "model.model", message: "The connection picked has no default model; name the model this agent uses." }]);
  });
});

describe("R-conn-reference: a version's summary names the model's change", () => {
  const agent = (model: Record<string, unknown>) => declarationSchema.parse({ name: "triage", model });
  const inline = { provider: "openai", model: "gpt-4o-mini", api_key: "${K}" };

  it("R-conn-reference: moving to a connection, picking another of its models, and changing options", () => {
    expect(summarizeChange(agent(inline), agent({ connection: "local-ollama" }))).toBe("Model now local-ollama (its default model)");
    expect(summarizeChange(agent({ connection: "local-ollama" }), agent({ connection: "local-ollama", model: "llama3" }))).toBe("Model now local-ollama/llama3");
    expect(summarizeChange(agent({ connection: "picked", model: "gpt-4o" }), agent({ connection: "picked", model: "gpt-4o", temperature: 0.2 }))).toBe(
      "Model options changed (temperature default → 0.2)",
    );
    expect(summarizeChange(agent(inline), agent({ ...inline, api_key: "${OTHER}" }))).toBe("Model settings changed");
  });
});
