// Refused input as sentences (R-input-sentence): each zod issue names its field and says what to send instead, a
// schema author's own sentence is kept, and the answer's message is one sentence, never the issues as JSON.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inputSentence, issueList, issueSentence } from "./sentences";
import { text } from "./text";

const issuesOf = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error!.issues;
const first = (schema: z.ZodType, input: unknown) => issueSentence(issuesOf(schema, input)[0]!);

describe("issueSentence", () => {
  it("says a missing field and a wrong type, naming the field", () => {
    const schema = z.object({ runId: z.string(), limit: z.number() });
    expect(first(schema, { limit: 1 })).toBe("runId is missing; send it as text.");
    expect(first(schema, { runId: "r", limit: "ten" })).toBe("limit must be a number; send it as a number.");
    expect(first(schema, undefined)).toBe("The input is missing; send it as an object.");
  });

  it("says sizes, formats and choices with what to send", () => {
    expect(first(z.object({ name: z.string().min(1) }), { name: "" })).toBe("name is empty; send at least one character.");
    expect(first(z.object({ source: z.string().max(3) }), { source: "long" })).toBe("source is too long; send at most 3 characters.");
    expect(first(z.object({ n: z.number().int().min(1) }), { n: 0 })).toBe("n must be at least 1; send a larger one.");
    expect(first(z.object({ id: z.string().uuid() }), { id: "x" })).toMatch(/^id is not an id the studio made \(a UUID such as .+\); send one\.$/);
    expect(first(z.object({ decision: z.enum(["once", "deny"]) }), { decision: "x" })).toBe('decision must be one of "once", "deny"; send one of them.');
    expect(first(z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/) }), { hash: "x" })).toBe("hash is not in the form it must have (/^[0-9a-f]{64}$/); send text of that form.");
  });

  it("keeps a sentence the schema's author wrote, also inside a union", () => {
    expect(first(z.object({ message: z.string().trim().min(1, "Write a message for the agent.") }), { message: " " })).toBe("Write a message for the agent.");
    const version = z.union([z.literal("working"), z.string().regex(/^[0-9a-f]{7,40}$/, "A version is a commit hash or “working”.")]);
    expect(first(z.object({ from: version }), { from: "zz" })).toBe("A version is a commit hash or “working”.");
  });

  it("puts the field first for text that cannot be stored, and the part of a JSON text at fault", () => {
    expect(first(z.object({ tools: z.array(z.object({ entry: text() })) }), { tools: [{ entry: "\u0000" }] })).toMatch(/^tools\[0\]\.entry contains a NUL character \(U\+0000\) at character 1; .+\.$/);
    expect(first(z.object({ settings: z.record(text(), z.unknown()) }), { settings: { "\u0000": 1 } })).toMatch(/^settings has a key that contains a NUL character/);
  });
});

describe("inputSentence and issueList", () => {
  it("is one sentence for the first field and a count of the other fields", () => {
    const issues = issuesOf(z.object({ a: text().uuid(), b: z.string(), c: z.string() }), { a: "\u0000" });
    expect(inputSentence(issues)).toMatch(/^a contains a NUL character .+\. 2 more fields have a problem too\.$/);
    expect(issueList(issues).map((i) => i.path)).toEqual(["a", "a", "b", "c"]);
    expect(issueList(issues).every((i) => /^[^[{].*\.$/.test(i.message))).toBe(true);
  });
});
