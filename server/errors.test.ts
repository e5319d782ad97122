// A DomainError is recognised whichever bundle made it: the runtime made at start-up (instrumentation) throws into
// route handlers that have their own copy of the class, and tRPC must still answer its kind, not a 500.
import { describe, expect, it } from "vitest";
import { DomainError } from "./errors";

describe("DomainError", () => {
  it("is recognised by instanceof when another copy of the class made it", () => {
    const foreign = Object.assign(new Error("This run has already ended."), { [Symbol.for("quiver.DomainError")]: true, kind: "CONFLICT", reason: "RUN_ENDED" });
    expect(foreign instanceof DomainError).toBe(true);
    expect(new DomainError("CONFLICT", "RUN_ENDED", "ended") instanceof DomainError).toBe(true);
  });

  it("is not claimed by other errors", () => {
    expect(new Error("plain") instanceof DomainError).toBe(false);
    expect((null as unknown as object) instanceof DomainError).toBe(false);
    expect({ kind: "CONFLICT" } instanceof DomainError).toBe(false);
  });
});
