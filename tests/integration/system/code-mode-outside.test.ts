// Code mode outside a run (docs/rules.md, Code mode): compute_exec called with no run behind it (Try it) has no
// studio to call back, so quiver.sources answers why rather than calling anything.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, context, place, type Place } from "./context";

let p: Place;
beforeEach(() => {
  p = place("code-outside");
});
afterEach(() => p.cleanup());

describe("quiver.sources outside a run", () => {
  it("R-code-outside-run: importing a source's module is an ImportError saying it works only in a run of an agent", async () => {
    const program = [
      "import quiver, quiver.sources",
      "print(quiver.sources.FOLDER)",
      "try:\n    from quiver.sources.files import read_file\nexcept ImportError as exc:\n    print(type(exc).__name__, exc)",
    ].join("\n");
    const result = await call("compute", "compute_exec", { code: program }, context(p, { sandbox: false }));
    expect(result).toEqual({
      outcome: "ok",
      text: "None\nModuleNotFoundError quiver.sources.files cannot be imported: quiver.sources works only in a run of an agent, where the studio can call each source back under the agent's rules",
    });
  });
});
