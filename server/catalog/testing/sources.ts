// Sources for the catalog's and the agents' unit tests: the real built-ins, and tree files written as the tool
// host's catalog would describe them (the integration tests use a real host).
import type { CatalogFile } from "@/server/host";
import { fromTree, systemSources, type Source } from "@/server/catalog/sources";

type ToolSpec = { name: string; description?: string; properties?: Record<string, unknown>; risk?: string; capabilities?: string[] };

export function treeFile(path: string, tools: ToolSpec[], extra: Partial<CatalogFile> = {}): CatalogFile {
  return {
    path,
    kind: "functions",
    title: null,
    description: `The ${path} file.`,
    offered: true,
    settings_schema: null,
    errors: [],
    tools: tools.map((t) => ({
      name: t.name,
      title: t.name,
      description: t.description ?? `Does ${t.name}.`,
      input_schema: { type: "object", properties: t.properties ?? {}, required: [] },
      scope: "call",
      risk: t.risk ?? "read",
      read_only: (t.risk ?? "read") === "read",
      destructive: false,
      timeout: null,
      replay: "manual",
      behaviour: { concurrent: true, capabilities: t.capabilities ?? [] },
    })),
    ...extra,
  };
}

/** The built-ins plus notes.py (two functions), tickets.py (a secret setting) and broken.py (an error). */
export function sampleSources(): Source[] {
  return [
    ...systemSources(),
    ...fromTree([
      treeFile("_helpers.py", [], { kind: "helper" }),
      treeFile("notes.py", [{ name: "notes__write", risk: "write", capabilities: ["file.write"] }, { name: "notes__read" }]),
      treeFile("tickets.py", [{ name: "tickets__open", risk: "network", capabilities: ["ticket.write"] }], {
        title: "Tickets",
        settings_schema: {
          type: "object",
          properties: {
            token: { type: "string", writeOnly: true, "x-quiver-kind": "secret" },
            project: { type: "string", default: "OPS", description: "Project key." },
            limit: { type: "integer", minimum: 1, default: 10 },
          },
          required: ["token"],
        },
      }),
      treeFile("broken.py", [{ name: "broken__go" }], { offered: false, errors: [{ line: 3, message: "bad annotation" }] }),
    ]),
  ];
}
