// The source card's line on where a Tool-class file's operations run (R-tool-class-runtime): a builder pointing one
// at a database in a local container needs to know whether it can reach localhost at all.
import type { Source } from "@/server/catalog/sources";

export function reachLine(source: Pick<Source, "runtime" | "operations">): string | null {
  const runtime = source.runtime;
  if (!runtime || (runtime.hosted.length === 0 && runtime.inProcess.length === 0)) return null;
  if (runtime.hosted.length === 0) return "Runs in the tool host, so it reaches localhost: a service on this machine or in a local container works.";
  if (runtime.inProcess.length === 0) return "Calls a hosted service, which cannot reach localhost: point it at an address the service can reach.";
  const title = (name: string) => source.operations.find((op) => op.name === name)?.title ?? name;
  return `Runs in the tool host, so it reaches localhost, except ${runtime.hosted.map(title).join(", ")}, which call a hosted service that cannot.`;
}
