import { describe, expect, it } from "vitest";
import type { CatalogFile } from "@/server/host";
import { fromTree } from "./sources";

function file(runtimes: Array<"in_process" | "hosted" | null>): CatalogFile {
  return {
    path: "sql.py",
    kind: runtimes.some((r) => r !== null) ? "tool_class" : "functions",
    title: null,
    description: null,
    offered: true,
    tools: runtimes.map((runtime, i) => ({
      name: `sql__op${i}`,
      title: `Op ${i}`,
      description: "",
      input_schema: { type: "object", properties: {}, required: [] },
      scope: "call",
      risk: "read",
      read_only: true,
      destructive: false,
      timeout: null,
      replay: "manual",
      behaviour: runtime ? { runtime } : {},
    })),
    settings_schema: null,
    errors: [],
  };
}

describe("a Tool-class file as a source", () => {
  it("R-tool-class-runtime: carries which of its operations run in the tool host and which call a hosted service", () => {
    expect(fromTree([file(["in_process", "hosted"])])[0]!.runtime).toEqual({ inProcess: ["sql__op0"], hosted: ["sql__op1"] });
    expect(fromTree([file([null])])[0]!.runtime).toBeUndefined();
  });
});
