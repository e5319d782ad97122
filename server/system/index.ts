// The built-in sources, by the name an entry gives after `system:` (R-sys-sources), in the order a
// builder's palette lists them. Edit to add a built-in: one module beside this one, one line here.
import { askUser } from "./ask-user";
import { bash } from "./bash";
import { compute } from "./compute";
import { filesystem } from "./filesystem";
import { memory } from "./memory";
import { planning } from "./planning";
import type { SystemHandler, SystemSource } from "./types";
import { web } from "./web";

export type { SystemContext, SystemHandler, SystemResult, SystemSource, Todo } from "./types";
export { outputDirFor } from "./filesystem";
export { systemSettings } from "./settings";

export const SYSTEM_SOURCES: readonly SystemSource[] = [filesystem, bash, web, memory, planning, askUser, compute];

const byName = new Map(SYSTEM_SOURCES.map((source) => [source.name, source]));

export function systemSource(name: string): SystemSource | undefined {
  return byName.get(name);
}

/** The implementation of one built-in operation: `(args, ctx) => Promise<SystemResult>` (types.ts). */
export function systemHandler(source: string, operation: string): SystemHandler | undefined {
  return byName.get(source)?.handlers[operation];
}
