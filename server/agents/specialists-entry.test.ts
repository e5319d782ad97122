import { describe, expect, it } from "vitest";
import { sampleSources } from "@/server/catalog/testing/sources";
import { parseEntry, resolveEntry } from "./entries";
import { agentSource } from "./specialists";
import { agentsIn } from "./specialists-entry";
import { findLoop, loopWords } from "./specialists-loop";

const RESEARCHER = "3f2c8a1e-5b6d-4c7e-9f01-23456789abcd";
const WRITER = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const sources = [
  ...sampleSources(),
  agentSource({ id: RESEARCHER, name: "Researcher", declaration: null }, "network"),
  agentSource({ id: WRITER, name: "Writer (drafts)", declaration: null }, "write"),
];

describe("an entry that names another agent (R-spec-entry)", () => {
  it("reads agent:<id> and agent:<name> as an agent, and one with nothing after the colon as no entry", () => {
    expect(parseEntry(`agent:${RESEARCHER.toUpperCase()}`)).toEqual({ ok: true, entry: { kind: "agent", source: `agent:${RESEARCHER}`, operations: null } });
    expect(parseEntry("agent: Researcher")).toEqual({ ok: true, entry: { kind: "agent", source: "agent:Researcher", operations: null } });
    expect(parseEntry("agent:")).toMatchObject({ ok: false, problem: expect.stringMatching(/names no agent/) });
  });

  it("gives the agent one tool, ask_<slug>, with a message in, and keeps a name written in any case as the id", () => {
    const resolved = resolveEntry("agent:writer (DRAFTS)", sources);
    expect(resolved).toMatchObject({ ok: true, canonical: `agent:${WRITER}` });
    if (!resolved.ok) return;
    expect(resolved.operations.map((op) => [op.name, op.timeout, op.concurrent, op.risk])).toEqual([["ask_writer_drafts", 300, true, "write"]]);
    expect(resolved.operations[0]!.input_schema).toMatchObject({ required: ["message"] });
    expect(resolveEntry(`agent:${RESEARCHER}#ask_researcher`, sources)).toMatchObject({ ok: true, canonical: `agent:${RESEARCHER}#ask_researcher` });
  });

  it("refuses an agent that does not exist, naming the closest by name or by id", () => {
    const byName = resolveEntry("agent:Reseacher", sources);
    expect(byName).toEqual({ ok: false, problems: [`There is no agent named “Reseacher”. The closest is Researcher (agent:${RESEARCHER}); name one as agent:<id> or agent:<its name>.`] });
    const typo = `agent:${RESEARCHER.slice(0, -1)}e`;
    expect(resolveEntry(typo, sources)).toMatchObject({ ok: false, problems: [expect.stringMatching(new RegExp(`^There is no agent .*The closest is Researcher \\(agent:${RESEARCHER}\\)`))] });
    expect(resolveEntry("agent:Nobody", sampleSources())).toMatchObject({ ok: false, problems: [expect.stringMatching(/This studio has no other agent yet/)] });
  });

  it("finds the agents a list of entries names by id, each once", () => {
    expect(agentsIn([`agent:${RESEARCHER}#ask_researcher`, "system:web", `agent:${RESEARCHER}`, "agent:Writer", 7])).toEqual([RESEARCHER]);
  });
});

describe("a loop of specialists (R-spec-cycle)", () => {
  it("finds the shortest way back, or none", () => {
    const edges = new Map([
      ["a", ["b", "c"]],
      ["b", ["d"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(findLoop("a", edges)).toEqual(["a", "c", "a"]);
    expect(findLoop("a", new Map([["a", ["a"]]]))).toEqual(["a", "a"]);
    expect(findLoop("b", new Map([["b", ["c"]], ["c", ["d"]], ["d", ["c"]]]))).toBeNull();
  });

  it("names the loop in the sentence, an agent asking itself apart", () => {
    expect(loopWords(["triage", "research", "triage"])).toMatch(/^This makes a loop of specialists \(triage → research → triage\)/);
    expect(loopWords(["triage", "triage"])).toMatch(/^This agent would ask itself \(triage → triage\)/);
  });
});
