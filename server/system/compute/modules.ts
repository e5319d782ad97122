// Code mode's modules (R-code-import, R-code-names): each source of the agent as a Python module of plain functions,
// `quiver.sources.<module>`, one function per operation the agent was given, its signature read from the input
// schema. Pure: the runtime says which sources and operations the run has, this file says what they are called in
// Python and how their signatures read. Edit when a kind of source gains a name, or the schema table a type.
import type { JsonSchema } from "@/server/operations/operation";

/** One parameter of a function, in the schema's order. */
export type SourceParameter = {
  name: string;
  /** The type as Python writes it: `str`, `int | None`, `list[str]`, `Literal['a', 'b']`. */
  type: string;
  required: boolean;
  /** The schema's default, when it gives one; an optional parameter without one is simply left out of the call. */
  default?: unknown;
  /** May be passed by position: a leading required parameter, before the first optional one (R-code-arguments). */
  positional: boolean;
  description: string;
};

export type SourceFunction = {
  /** The name the program imports: a valid Python identifier. */
  name: string;
  /** The operation it calls, as the agent's catalog names it. */
  operation: string;
  /** The first line of the operation's description. */
  summary: string;
  parameters: SourceParameter[];
};

export type SourceModule = {
  /** `quiver.sources.<name>`: a valid Python identifier. */
  name: string;
  /** What the agent's entry names: `system:filesystem`, `tools/notes.py`, an MCP server's id, `agent:<id>`. */
  entry: string;
  kind: "system" | "tree" | "mcp" | "agent";
  title: string;
  description: string;
  /** When to reach for it, in a sentence. */
  when: string;
  functions: SourceFunction[];
};

const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(" "),
);

/** Any name as a Python identifier: `-` and every other character outside [A-Za-z0-9_] as `_`, a leading digit after `_`, a keyword with `_` after it. */
export function identifier(name: string): string {
  let id = name.replace(/[^A-Za-z0-9_]/g, "_");
  if (id === "") id = "_";
  if (/^[0-9]/.test(id)) id = `_${id}`;
  return KEYWORDS.has(id) ? `${id}_` : id;
}

/** The built-ins' module names: the `system:` name, except Files, which a program imports as `files`. */
const SYSTEM_MODULE: Record<string, string> = { filesystem: "files" };

/** The module name of an entry's source (R-code-names). `slug` is an MCP server's; agents share one module, `agents`. */
export function moduleName(kind: SourceModule["kind"], entry: string, slug?: string): string {
  const source = entry.split("#")[0]!.trim();
  if (kind === "system") {
    const name = source.slice("system:".length);
    return SYSTEM_MODULE[name] ?? identifier(name);
  }
  if (kind === "tree") return identifier(source.replace(/^tools\//, "").replace(/\.py$/, ""));
  if (kind === "agent") return "agents";
  return identifier(slug ?? `mcp_${source.slice(0, 8)}`);
}

/** The function's name: a tree tool's without its `<file>__`, an MCP tool's own name, made an identifier. */
export function functionName(kind: SourceModule["kind"], operation: string, module: string, mcpTool?: string): string {
  if (kind === "mcp" && mcpTool) return identifier(mcpTool);
  const prefix = `${module}__`;
  return identifier(kind === "tree" && operation.startsWith(prefix) ? operation.slice(prefix.length) : operation);
}

/** A JSON Schema as the Python type a reader expects (the same table a tree file's hints are read by, backwards). */
export function pythonType(schema: JsonSchema | undefined): string {
  if (!schema || typeof schema !== "object") return "Any";
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return `Literal[${s.enum.map((v) => (typeof v === "string" ? `'${v.replace(/'/g, "\\'")}'` : JSON.stringify(v))).join(", ")}]`;
  const union = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null) as JsonSchema[] | null;
  if (union) return [...new Set(union.map(pythonType))].join(" | ");
  if (Array.isArray(s.type)) return s.type.map((t) => pythonType({ ...s, type: t })).join(" | ");
  switch (s.type) {
    case "string":
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "null":
      return "None";
    case "array":
      return s.items ? `list[${pythonType(s.items as JsonSchema)}]` : "list";
    case "object":
      return "dict";
    default:
      return "Any";
  }
}

/** The parameters an input schema describes, in its order; the leading required ones may be passed by position. */
export function parametersOf(schema: JsonSchema): SourceParameter[] {
  const s = (schema ?? {}) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const required = new Set(s.required ?? []);
  let leading = true;
  return Object.entries(s.properties ?? {}).map(([name, property]) => {
    const p = (property ?? {}) as Record<string, unknown>;
    const isRequired = required.has(name);
    leading &&= isRequired && identifier(name) === name;
    const type = pythonType(property);
    // Left out of the call when not given, so it reads as Python writes an optional parameter.
    const optional = !isRequired && !("default" in p) && !type.split(" | ").includes("None");
    return {
      name,
      type: optional ? `${type} | None` : type,
      required: isRequired,
      ...("default" in p ? { default: p.default } : {}),
      positional: leading,
      description: typeof p.description === "string" ? p.description : "",
    };
  });
}

/** A value as Python writes it, for a default in a signature. */
function pythonValue(value: unknown): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  return JSON.stringify(value);
}

/** `read_file(path: str, *, start_line: int = 1, max_lines: int | None = None) -> str` */
export function signatureOf(fn: SourceFunction): string {
  const positional = fn.parameters.filter((p) => p.positional);
  const keyword = fn.parameters.filter((p) => !p.positional);
  const one = (p: SourceParameter) => {
    const tail = p.required ? "" : ` = ${"default" in p ? pythonValue(p.default) : "None"}`;
    return `${identifier(p.name) === p.name ? p.name : `**{'${p.name}': …}`}: ${p.type}${tail}`;
  };
  const parts = [...positional.map(one), ...(keyword.length ? ["*", ...keyword.map(one)] : [])];
  return `${fn.name}(${parts.join(", ")}) -> str`;
}

/** The first line of a description: the sentence a reader decides by. */
export function firstLine(description: string): string {
  return description.split("\n").map((line) => line.trim()).find(Boolean) ?? "";
}

/** Names made unique within a module: a second `get_x` (from `get-x` beside `get_x`) becomes `get_x_2`. */
export function uniqueNames(functions: SourceFunction[]): SourceFunction[] {
  const taken = new Set<string>();
  return functions.map((fn) => {
    let name = fn.name;
    for (let n = 2; taken.has(name); n++) name = `${fn.name}_${n}`;
    taken.add(name);
    return name === fn.name ? fn : { ...fn, name };
  });
}

/** What a program asks: one function of one module (or, with `operation`, one operation by its own name). */
export type SourceRequest = { source: string; function?: string; operation?: string; arguments: Record<string, unknown> };

/** What the studio answers it: the text the model would have read, and how the call ended. */
export type SourceAnswer = { outcome: "ok" | "refused" | "failed" | "transient" | "timeout"; text: string };

/** What a run gives compute_exec so its program can call the agent's sources (R-code-import). */
export type CodeSources = {
  /** The agent's sources as modules, read for this call. */
  modules(): Promise<SourceModule[]>;
  /** One call, back through the run's rules; the program's clock stops while it runs (R-code-clock). */
  call(request: SourceRequest): Promise<SourceAnswer>;
  /** The agent's working folder, where its file tools read `.quiver/sources/` (R-code-index); null when it has none. */
  folder: string | null;
};
