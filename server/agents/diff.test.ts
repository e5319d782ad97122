import { describe, expect, it } from "vitest";
import { declarationSchema } from "./declaration";
import { summarizeChange } from "./diff";
import { governedBy } from "./hook";

const agent = (extra: Record<string, unknown> = {}) =>
  declarationSchema.parse({ name: "triage", model: { provider: "openai", model: "gpt-4o-mini", api_key: "${K}" }, ...extra });

describe("a version's summary says what changed", () => {
  it("names added and removed sources, narrowings, settings and approvals", () => {
    const before = agent({ tools: [{ entry: "system:filesystem", settings: { root: "a" } }, { entry: "system:bash" }] });
    const after = agent({
      tools: [{ entry: "system:filesystem#read_file", settings: { root: "b" }, permissions: { read_file: "ASK" } }, { entry: "system:web" }],
    });
    expect(summarizeChange(before, after)).toBe(
      "Narrowed system:filesystem to read_file; changed root of system:filesystem; read_file: Ask me; added system:web; removed system:bash",
    );
  });

  it("names changes to the about, model and limits", () => {
    const after = agent({ instructions: "Be brief.", model: { provider: "anthropic", model: "claude", api_key: "${K}" }, policy: { timeout_s: 30 } });
    expect(summarizeChange(agent(), after)).toBe("Instructions changed; model now anthropic/claude; limits changed (timeout_s 25 → 30)");
  });

  it("says so when nothing changed", () => {
    expect(summarizeChange(agent(), agent())).toBe("no changes");
  });
});

describe("which operations the call hook mentions", () => {
  const names = ["tickets__open", "tickets__close", "notes__write", "run_bash"];

  it("lists the operations named in its string literals", () => {
    expect(governedBy(`def check(call):\n    if call.name in ("run_bash", 'notes__write'):\n        return ask()\n`, names)).toEqual(["notes__write", "run_bash"]);
  });

  it("reads a file prefix as every operation of that file", () => {
    expect(governedBy(`if name.startswith("tickets__"): refuse("no")`, names)).toEqual(["tickets__open", "tickets__close"]);
  });

  it("reports a hook that names no operation as governing all of them", () => {
    expect(governedBy(`def check(call):\n    return call.args.get("path", "").startswith("/etc")\n`, names)).toBe("all");
  });
});
