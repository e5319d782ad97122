import { describe, expect, it } from "vitest";
import { systemSource } from "@/server/system";
import { fromSystem, fromTree } from "./sources";
import { treeFile } from "./testing/sources";

describe("the built-in sources in the catalog", () => {
  it("show as sources with the riskiest operation's risk", () => {
    expect(fromSystem(systemSource("filesystem")!).risk).toBe("write");
    expect(fromSystem(systemSource("compute")!).risk).toBe("exec");
    expect(fromSystem(systemSource("web")!).risk).toBe("network");
  });
});

describe("the tree's files in the catalog", () => {
  it("keep a file its check() holds back out of what is offered, with the reason and no error (R-module-check)", () => {
    const [held, fine] = fromTree([
      treeFile("gated.py", [{ name: "gated" }], { kind: "module", offered: false, unavailable: "check() answered False, so gated is not offered" }),
      treeFile("notes.py", [{ name: "notes__read" }]),
    ]);
    expect(held).toMatchObject({ offered: false, errors: [], unavailable: "check() answered False, so gated is not offered" });
    expect(fine).toMatchObject({ offered: true, unavailable: null });
  });

  it("say a file with errors has errors, whatever its check() answered", () => {
    const [broken] = fromTree([treeFile("b.py", [], { offered: false, errors: [{ line: 2, message: "bad" }], unavailable: "check() answered False" })]);
    expect(broken).toMatchObject({ offered: false, unavailable: null });
  });
});
