import { describe, expect, it } from "vitest";
import { isCapability } from "@/server/operations/capabilities";
import { SYSTEM_SOURCES, systemHandler, systemSettings, systemSource } from "./index";

const op = (source: string, name: string) => systemSource(source)!.operations.find((o) => o.name === name)!;

describe("the built-in sources", () => {
  it("are the ones R-sys-sources names, with the filesystem bundle in order", () => {
    expect(SYSTEM_SOURCES.map((s) => s.name)).toEqual(["filesystem", "bash", "web", "memory", "planning", "ask_user", "compute"]);
    expect(systemSource("filesystem")!.operations.map((o) => o.name)).toEqual([
      "read_file",
      "write_file",
      "edit_file",
      "delete",
      "glob",
      "grep",
      "list_directory",
      "generate_file",
    ]);
    expect(systemSource("planning")!.operations.map((o) => o.name)).toEqual(["write_todos", "read_todos"]);
  });

  it("declare every operation fully: a name a provider accepts, a title, a one-line description, an object schema", () => {
    for (const source of SYSTEM_SOURCES) {
      for (const o of source.operations) {
        expect(o.name).toMatch(/^[a-zA-Z0-9_-]{1,128}$/);
        expect(o.title.length).toBeGreaterThan(0);
        expect(o.description).not.toContain("\n");
        expect(o.input_schema.type).toBe("object");
        expect(o.capabilities.length, o.name).toBeGreaterThan(0);
        for (const tag of o.capabilities) expect(isCapability(tag), tag).toBe(true);
      }
    }
  });

  it("run the four reads concurrently and the writes one at a time (R-sys-filesystem-concurrency)", () => {
    for (const name of ["read_file", "glob", "grep", "list_directory"]) expect(op("filesystem", name)).toMatchObject({ read_only: true, concurrent: true });
    for (const name of ["write_file", "edit_file", "delete", "generate_file"]) expect(op("filesystem", name)).toMatchObject({ read_only: false, concurrent: false });
  });

  it("keep the filesystem's root and limits in its settings, out of every input schema", () => {
    const settings = systemSource("filesystem")!.settings_schema!.properties as Record<string, Record<string, unknown>>;
    expect(settings.root).toMatchObject({ "x-quiver-kind": "root" });
    expect(settings.max_read_bytes!.default).toBe(1_000_000);
    expect(settings.max_directory_entries!.default).toBe(1_000);
    for (const o of systemSource("filesystem")!.operations) {
      expect(Object.keys(o.input_schema.properties as object)).not.toEqual(expect.arrayContaining(["root"]));
    }
    expect(Object.keys(op("web", "fetch_url").input_schema.properties as object)).toEqual(["url"]);
  });

  it("implement every operation they declare, and nothing they do not", () => {
    for (const source of SYSTEM_SOURCES) {
      expect(Object.keys(source.handlers).sort(), source.name).toEqual(source.operations.map((o) => o.name).sort());
      for (const o of source.operations) expect(systemHandler(source.name, o.name), o.name).toBeTypeOf("function");
    }
  });

  it("never offer a setting to the model: no input schema has a field the settings model has (R-sys-settings-hidden)", () => {
    for (const source of SYSTEM_SOURCES) {
      const settings = Object.keys((source.settings_schema?.properties ?? {}) as object);
      for (const o of source.operations) {
        const fields = Object.keys(o.input_schema.properties as object);
        expect(fields.filter((f) => settings.includes(f)), `${source.name}.${o.name}`).toEqual([]);
      }
    }
    expect(Object.keys(op("filesystem", "read_file").input_schema.properties as object)).not.toContain("max_read_bytes");
    expect(Object.keys(op("filesystem", "list_directory").input_schema.properties as object)).not.toContain("max_directory_entries");
  });

  it("fill a built-in's settings with their defaults and turn the root into a folder of the workspace", () => {
    expect(systemSettings(systemSource("filesystem")!, { root: "inbox" }, "/data/workspace")).toEqual({
      root: "/data/workspace/inbox",
      max_read_bytes: 1_000_000,
      max_directory_entries: 1_000,
    });
    expect(systemSettings(systemSource("web")!, { max_length: 500 }, "/w")).toEqual({ max_length: 500, allow_private_network: false });
    expect(systemSettings(systemSource("bash")!, {}, "/w")).toEqual({});
  });

  it("need overwrite to replace a file and recursive to delete a non-empty folder", () => {
    expect((op("filesystem", "write_file").input_schema.properties as Record<string, unknown>).overwrite).toMatchObject({ type: "boolean", default: false });
    expect((op("filesystem", "delete").input_schema.properties as Record<string, unknown>).recursive).toMatchObject({ type: "boolean", default: false });
    expect(op("filesystem", "delete").destructive).toBe(true);
  });

  it("declare their own timeouts (R-sys-timeouts), which no policy changes; the rest use the policy's default", () => {
    expect(op("bash", "run_bash").timeout).toBe(300);
    expect(op("web", "fetch_url").timeout).toBe(60);
    expect(op("ask_user", "ask_user").timeout).toBe(3600);
    expect(op("filesystem", "read_file").timeout).toBeNull();
    expect(op("planning", "write_todos").timeout).toBeNull();
    expect(op("memory", "memory_get").timeout).toBeNull();
  });

  it("register ask_user one at a time and replay-safe", () => {
    expect(op("ask_user", "ask_user")).toMatchObject({ concurrent: false, replay: "safe" });
  });

  it("mark nothing else replay-safe on its own (R-sys-replay-manual)", () => {
    const safe = SYSTEM_SOURCES.flatMap((s) => s.operations).filter((o) => o.replay !== "manual");
    expect(safe.map((o) => o.name)).toEqual(["ask_user"]);
  });

  it("take write_todos items with content and a status, extra keys allowed", () => {
    const items = (op("planning", "write_todos").input_schema.properties as Record<string, { items: Record<string, unknown> }>).todos!.items;
    expect(items.required).toEqual(["content", "status"]);
    expect((items.properties as Record<string, { enum?: string[] }>).status!.enum).toEqual(["pending", "in_progress", "completed"]);
    expect(items.additionalProperties).toBe(true);
  });
});
