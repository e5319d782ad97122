// INDEX.md (R-code-index): one per source of the agent, and one listing them all, so an agent in code mode can be
// given few tools up front and find the rest by reading: what the source is, when to reach for it, how to import it,
// and each function's signature and first docstring line. The same text is the module's docstring in a program.
import { firstLine, signatureOf, type SourceModule } from "./modules";

/** When to reach for each built-in, in the words a model decides by; other sources say it in their description. */
const WHEN: Record<string, string> = {
  "system:filesystem": "reading, searching and changing the agent's files under its folder.",
  "system:bash": "running a shell command in the agent's working folder and reading its output.",
  "system:web": "reading a public web page or any http(s) address as text.",
  "system:memory": "remembering a small fact across runs, and reading it back.",
  "system:planning": "keeping the plan of a task of three or more steps, shown to the person.",
  "system:ask_user": "a decision only the person running the agent can make.",
  "system:compute": "running one more Python program.",
};

const KIND: Record<SourceModule["kind"], string> = {
  system: "a built-in source of the studio",
  tree: "a tool file of the studio's tree",
  mcp: "an MCP server",
  agent: "the studio's other agents, each one function that gives it a task and answers its reply",
};

export function whenOf(module: Pick<SourceModule, "entry" | "kind" | "description">): string {
  const builtIn = WHEN[module.entry.split("#")[0]!.trim()];
  if (builtIn) return `Reach for it for ${builtIn}`;
  const said = firstLine(module.description).replace(/[.\s]+$/, "");
  return said ? `Reach for it when a task needs what it is for: ${said}.` : "Reach for it when a task needs one of the functions below.";
}

/** `<folder>/<module>/INDEX.md`'s text. */
export function moduleIndex(module: SourceModule): string {
  const names = module.functions.map((fn) => fn.name);
  const lines = [
    `# ${module.title} (\`quiver.sources.${module.name}\`)`,
    "",
    `${module.description.trim() || module.title} It is ${KIND[module.kind]}: \`${module.entry}\`.`,
    "",
    module.when,
    "",
    "```python",
    names.length ? `from quiver.sources.${module.name} import ${names.join(", ")}` : `import quiver.sources.${module.name}`,
    "```",
    "",
    "Each function calls the operation back through the studio under this agent's permissions, call hook and audit, and returns the text",
    "the model would have read; a refusal raises `quiver.Refused`, a transient failure `quiver.TransientError`, any other failure",
    "or a timeout `quiver.CallFailed`. Pass arguments by keyword; the ones before `*` may be passed by position too.",
    "",
    "## Functions",
  ];
  if (module.functions.length === 0) lines.push("", "This agent was given none of its operations.");
  for (const fn of module.functions) {
    lines.push("", `### \`${signatureOf(fn)}\``, "", fn.summary || `Calls ${fn.operation}.`);
    if (fn.name !== fn.operation) lines.push("", `The operation \`${fn.operation}\`.`);
    const described = fn.parameters.filter((p) => p.description);
    if (described.length) lines.push("", ...described.map((p) => `- \`${p.name}\`: ${firstLine(p.description)}`));
  }
  return `${lines.join("\n")}\n`;
}

/** `<folder>/INDEX.md`'s text: every module with its one line, and where each one's own INDEX.md is. */
export function sourcesIndex(modules: SourceModule[]): string {
  const lines = [
    "# This agent's sources in code mode",
    "",
    "A program run with compute_exec imports each source below as plain functions (`from quiver.sources.files import read_file`);",
    "each call goes back through the studio under this agent's rules. Read a source's own INDEX.md for its functions.",
    "",
    ...modules.map((m) => `- \`quiver.sources.${m.name}\` (${m.name}/INDEX.md): ${m.title}. ${firstLine(m.description) || ""} ${m.functions.length} function${m.functions.length === 1 ? "" : "s"}: ${m.functions.map((fn) => fn.name).join(", ") || "none"}.`.replace(/\s+/g, " ")),
  ];
  if (modules.length === 0) lines.push("This agent has no source a program can import.");
  return `${lines.join("\n")}\n`;
}
