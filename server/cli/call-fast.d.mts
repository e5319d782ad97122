// Types of call-fast.mjs, for the TypeScript that tests it.
export type SpawnSpec = { command: string; args: string[]; cwd: string; env: Record<string, string> };
export type PlainCall = {
  tree: string;
  name: string;
  args: Record<string, unknown>;
  settings: Record<string, unknown>;
  timeoutS: number | undefined;
  dataDir: string;
  python: string;
};
export function spawnSpec(tree: string, options: { dataDir: string; python: string }): SpawnSpec;
export function plainCall(argv: string[], environment?: Record<string, string | undefined>, cwd?: string): PlainCall | null;
export function fastCall(argv: string[]): Promise<number | null>;
