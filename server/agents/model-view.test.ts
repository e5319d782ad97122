import { describe, expect, it } from "vitest";
import { fromTree, systemSources } from "@/server/catalog/sources";
import { modelToolsFor, modelView } from "./model-view";
import { sampleSources, treeFile } from "@/server/catalog/testing/sources";

const sources = sampleSources();

describe("what the model sees", () => {
  it("is, per entry in order, the narrowed operations' name, description and input schema", () => {
    const view = modelView(["system:web", "system:filesystem#list_directory,read_file"], sources);
    expect(view.problems).toEqual([]);
    expect(view.tools.map((t) => t.name)).toEqual(["fetch_url", "read_file", "list_directory"]);
    for (const tool of view.tools) expect(Object.keys(tool).sort()).toEqual(["description", "input_schema", "name"]);
  });

  it("never holds the filesystem's settings: its root and limits are hidden from the model (R-sys-settings-hidden)", () => {
    const tools = modelView(["system:filesystem", "system:web"], sources).tools;
    const inputs = tools.flatMap((t) => Object.keys(t.input_schema.properties as object));
    for (const key of ["root", "max_read_bytes", "max_directory_entries", "max_length"]) expect(inputs).not.toContain(key);
    expect(JSON.stringify(tools)).not.toContain("x-quiver-kind");
  });

  it("hands out copies: changing a view's schema leaves the catalog alone", () => {
    const [tool] = modelView(["system:web"], sources).tools;
    (tool!.input_schema.properties as Record<string, unknown>).url = "changed";
    expect(JSON.stringify(modelView(["system:web"], sources).tools)).not.toContain("changed");
  });

  it("refuses two entries offering one name, naming both sources", () => {
    const clash = [...systemSources(), ...fromTree([treeFile("reader.py", [{ name: "read_file" }], { kind: "module" })])];
    const view = modelView(["system:filesystem#read_file,glob", "tools/reader.py"], clash);
    expect(view.problems).toEqual([
      {
        index: 1,
        message:
          "Two entries offer an operation named read_file: system:filesystem (tools[0]) and tools/reader.py (tools[1]); narrow one of them so the model is offered each name once.",
      },
    ]);
    expect(view.tools).toEqual([]);
    expect(() => modelToolsFor(["system:filesystem", "tools/reader.py"], clash)).toThrow(/system:filesystem .* and tools\/reader\.py/);
  });

  it("lets a narrowing settle a clash", () => {
    const clash = [...systemSources(), ...fromTree([treeFile("reader.py", [{ name: "read_file" }], { kind: "module" })])];
    expect(modelView(["system:filesystem#glob", "tools/reader.py"], clash).problems).toEqual([]);
  });

  it("refuses a source listed twice", () => {
    const view = modelView(["system:filesystem#read_file", "system:filesystem#glob"], sources);
    expect(view.problems[0]!.message).toMatch(/system:filesystem is listed twice \(tools\[0\] and tools\[1\]\)/);
  });

  it("leaves out an entry it cannot resolve and says why", () => {
    const view = modelView(["system:web", "system:nope"], sources);
    expect(view.tools.map((t) => t.name)).toEqual(["fetch_url"]);
    expect(view.problems).toMatchObject([{ index: 1 }]);
  });
});

// A small seeded generator: random tree files with random settings models (secret, root and plain fields with
// random defaults), random operations, and random narrowings. Whatever comes out, no setting reaches the view.
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const token = (kind: string) => `${kind}${int(1e9).toString(36)}zq${int(1e9).toString(36)}`;
  return { next, int, token };
}

describe("no setting or secret ever reaches the model (property)", () => {
  it("holds for 200 generated sets of sources, settings models and narrowings", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = random(seed);
      const secrets: string[] = [];
      const files = Array.from({ length: 1 + r.int(4) }, (_, f) => {
        const properties: Record<string, Record<string, unknown>> = {};
        for (let i = 0; i < r.int(5); i++) {
          const key = r.token("setting");
          secrets.push(key);
          const kind = ["secret", "root", "plain"][r.int(3)]!;
          const value = kind === "secret" ? `\${${r.token("SECRET").toUpperCase()}}` : r.token("value");
          secrets.push(value);
          properties[key] = { type: "string", default: value, description: r.token("about"), ...(kind === "plain" ? {} : { "x-quiver-kind": kind }) };
        }
        const ops = Array.from({ length: 1 + r.int(3) }, (_, o) => ({
          name: `f${f}__op${o}`,
          description: `Operation ${o} of file ${f}.`,
          properties: { arg: { type: "string", description: "An argument." } },
        }));
        return treeFile(`f${f}.py`, ops, { settings_schema: { type: "object", properties, required: [] } });
      });
      const generated = [...systemSources(), ...fromTree(files)];
      const entries = files.map((file, f) => {
        const names = file.tools.map((t) => t.name).filter(() => r.next() < 0.6);
        return names.length > 0 && r.next() < 0.5 ? `tools/f${f}.py#${names.join(",")}` : `tools/f${f}.py`;
      });
      const view = modelView([...entries, "system:filesystem", "system:web"], generated);
      expect(view.problems, `seed ${seed}`).toEqual([]);
      const json = JSON.stringify(view.tools);
      for (const secret of secrets) expect(json, `seed ${seed}`).not.toContain(secret);
      expect(json, `seed ${seed}`).not.toContain("x-quiver-kind");
      for (const tool of view.tools) expect(Object.keys(tool).sort(), `seed ${seed}`).toEqual(["description", "input_schema", "name"]);
    }
  });
});
