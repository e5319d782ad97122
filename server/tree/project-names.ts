// The project files the Tools page edits beside the tree (R-deps-edit): the dependency files at the checkout's root
// (R-deps-root) and the call hook (R-perm-hook). Exactly these names, relative to the tree folder's parent; their
// names never collide with a tool file's, which is flat and ends in .py. Pure, so the editor shares it.

export const DEPENDENCY_FILES = ["requirements.txt", "pyproject.toml", "setup.sh"] as const;
export const HOOK_FILE = "hooks/tools.py";
export const PROJECT_FILES = [...DEPENDENCY_FILES, HOOK_FILE] as const;

export type ProjectFileName = (typeof PROJECT_FILES)[number];

export function isProjectFile(name: string): name is ProjectFileName {
  return (PROJECT_FILES as readonly string[]).includes(name);
}

export function isDependencyFile(name: string): boolean {
  return (DEPENDENCY_FILES as readonly string[]).includes(name);
}

/** Monaco's language for a project file: each is read by pip, bash or Python. */
export function projectLanguage(name: string): string {
  if (name.endsWith(".py")) return "python";
  if (name.endsWith(".sh")) return "shell";
  if (name.endsWith(".toml")) return "ini";
  return "plaintext";
}

/** The sentence refusing any other name: only these files, never another path. */
export function projectNameProblem(name: string): string | null {
  if (isProjectFile(name)) return null;
  return `“${name}” is not a project file: the Tools page edits ${PROJECT_FILES.join(", ")} at the root of the checkout, and nothing else there.`;
}
