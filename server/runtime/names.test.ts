// Matching the name a model called (R-loop-name-repair, R-alias-several), pure.
import { describe, expect, it } from "vitest";
import { matchName } from "./names";

const offered = ["box__read_file", "box__readFile", "box__echo", "box__put"];

describe("a name several tools share", () => {
  it("R-alias-several: a name two tools match once formatting is set aside is answered with both, never run", () => {
    const match = matchName("Box-Read-File", offered, []);
    expect(match).toEqual({
      kind: "unknown",
      message: "“Box-Read-File” matches 2 of your tools once case and separators are set aside: box__read_file and box__readFile, so nothing ran. Call the one you mean by its exact name.",
    });
    expect(match.kind === "unknown" && match.message).not.toContain("There is no tool named");
  });

  it("R-alias-several: three tools sharing a name are all named", () => {
    const match = matchName("functions.box.read-file", [...offered, "box__READ_FILE"], []);
    expect(match.kind === "unknown" && match.message).toContain("matches 3 of your tools once case and separators are set aside: box__read_file, box__readFile and box__READ_FILE,");
  });

  it("R-alias-several: the exact name still wins, and a name only one tool matches is repaired", () => {
    expect(matchName("box__readFile", offered, [])).toEqual({ kind: "offered", name: "box__readFile", repaired: false });
    expect(matchName("Box.Echo", offered, [])).toEqual({ kind: "offered", name: "box__echo", repaired: true });
  });

  it("R-loop-name-repair: a name no tool matches is still told the closest names", () => {
    const match = matchName("box__ecko", offered, []);
    expect(match.kind === "unknown" && match.message).toContain("There is no tool named “box__ecko”");
  });
});
