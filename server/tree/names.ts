// What a tool file may be called (R-file-module-name): letters, digits and underscores, like a Python module,
// flat in the tree, ending in .py; `quiver` and `quiverhost` belong to the tool host.
const MODULE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = new Set(["quiver", "quiverhost"]);

/** The sentence that says why `name` cannot be a tool file, or null when it can. */
export function fileNameProblem(name: string): string | null {
  if (name.includes("/") || name.includes("\\")) {
    return `“${name}” names a folder: tool files sit flat in the tree, so give a name like notes.py.`;
  }
  if (!name.endsWith(".py")) return `“${name}” must end in .py, like notes.py.`;
  const stem = name.slice(0, -3);
  if (!MODULE.test(stem)) {
    const suggestion = stem.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^(?=[0-9])/, "_") || "tool";
    return `“${name}” is not a Python module name: use letters, digits and underscores, not starting with a digit (for example ${suggestion}.py).`;
  }
  if (RESERVED.has(stem)) return `“${name}” is reserved for the tool host; choose another name.`;
  return null;
}
