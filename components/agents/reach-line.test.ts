import { describe, expect, it } from "vitest";
import { fromTree } from "@/server/catalog/sources";
import type { CatalogFile } from "@/server/host";
import { reachLine } from "./reach-line";

function toolFile(runtimes: Array<"in_process" | "hosted" | null>): CatalogFile {
  return {
    path: "sql.py",
    kind: "class",
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

describe("where a Tool class runs", () => {
  it("R-tool-class-runtime: the source card says whether a Tool-class file's operations reach localhost", () => {
    const [here] = fromTree([toolFile(["in_process", "in_process"])]);
    expect(here!.runtime).toEqual({ inProcess: ["sql__op0", "sql__op1"], hosted: [] });
    expect(reachLine(here!)).toBe("Runs in the tool host, so it reaches localhost: a service on this machine or in a local container works.");
    const [away] = fromTree([toolFile(["hosted"])]);
    expect(reachLine(away!)).toBe("Calls a hosted service, which cannot reach localhost: point it at an address the service can reach.");
    const [mixed] = fromTree([toolFile(["in_process", "hosted"])]);
    expect(reachLine(mixed!)).toBe("Runs in the tool host, so it reaches localhost, except Op 1, which call a hosted service that cannot.");
    // Functions, classes and modules always run in the tool host: their cards say nothing of it.
    const [functions] = fromTree([toolFile([null])]);
    expect(functions!.runtime).toBeUndefined();
    expect(reachLine(functions!)).toBeNull();
  });
});
