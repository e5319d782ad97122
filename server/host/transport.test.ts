import { describe, expect, it } from "vitest";
import { describeExit } from "./transport";

describe("how a host's end is described", () => {
  it("gives a signal's shell exit code beside its name", () => {
    expect(describeExit({ code: null, signal: "SIGKILL" })).toBe("exit code 137, signal SIGKILL");
  });

  it("names the signal behind a 128+N exit code (bubblewrap passes its child's death on that way)", () => {
    expect(describeExit({ code: 137, signal: null })).toBe("exit code 137, signal SIGKILL");
  });

  it("gives a plain exit code alone", () => {
    expect(describeExit({ code: 1, signal: null })).toBe("exit code 1");
  });
});
