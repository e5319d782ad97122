import { describe, expect, it } from "vitest";
import { systemSource } from "@/server/system";
import { fromSystem } from "./sources";

describe("the built-in sources in the catalog", () => {
  it("show as sources with the riskiest operation's risk", () => {
    expect(fromSystem(systemSource("filesystem")!).risk).toBe("write");
    expect(fromSystem(systemSource("compute")!).risk).toBe("exec");
    expect(fromSystem(systemSource("web")!).risk).toBe("network");
  });
});
