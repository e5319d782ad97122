import { describe, expect, it } from "vitest";
import { reachLine } from "./reach-line";

const operations = [
  { name: "sql__query", title: "Run a query" },
  { name: "sql__execute", title: "Change the database" },
] as Parameters<typeof reachLine>[0]["operations"];

describe("where a Tool class runs", () => {
  it("R-tool-class-runtime: the source card says whether a Tool-class file's operations reach localhost", () => {
    expect(reachLine({ operations, runtime: { inProcess: ["sql__query", "sql__execute"], hosted: [] } })).toBe(
      "Runs in the tool host, so it reaches localhost: a service on this machine or in a local container works.",
    );
    expect(reachLine({ operations, runtime: { inProcess: [], hosted: ["sql__query", "sql__execute"] } })).toBe(
      "Calls a hosted service, which cannot reach localhost: point it at an address the service can reach.",
    );
    expect(reachLine({ operations, runtime: { inProcess: ["sql__query"], hosted: ["sql__execute"] } })).toBe(
      "Runs in the tool host, so it reaches localhost, except Change the database, which call a hosted service that cannot.",
    );
    // Functions, classes and modules always run in the tool host: their cards say nothing of it.
    expect(reachLine({ operations })).toBeNull();
  });
});
