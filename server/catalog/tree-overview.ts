// The tree as /tools shows it: each file on disk with what the tool host derived from it.
// A host that cannot start still leaves the files listed, with the reason beside them.
import { hostFor, type CatalogFile } from "@/server/host";
import { listTreeFiles, type TreeFile } from "./tree-files";

export type OverviewFile = TreeFile & {
  kind: CatalogFile["kind"] | null;
  title: string | null;
  description: string | null;
  offered: boolean;
  /** How many operations the file offers (0 when it has errors, or its check() said no: it offers nothing). */
  operations: number;
  errors: CatalogFile["errors"];
  /** Why a file without errors offers nothing right now (its check() said no), or null. */
  unavailable: string | null;
};

export type TreeOverview = {
  dir: string;
  exists: boolean;
  files: OverviewFile[];
  host: { sandboxed: boolean; reason: string | null; error: string | null; replacedAt: string | null; lastReplacement: string | null };
};

export async function treeOverview(dir: string): Promise<TreeOverview> {
  const listing = await listTreeFiles(dir);
  const host = hostFor(dir);
  let catalog: CatalogFile[] = [];
  let error: string | null = null;
  if (listing.exists) {
    try {
      catalog = (await host.catalog()).files;
    } catch (err) {
      error = `The tool host could not read the tree: ${(err as Error).message}`;
    }
  }
  const byPath = new Map(catalog.map((file) => [file.path, file]));
  const files = listing.files.map((file): OverviewFile => {
    const derived = byPath.get(file.path);
    return {
      ...file,
      kind: derived?.kind ?? null,
      title: derived?.title ?? null,
      description: derived?.description ?? null,
      offered: derived?.offered ?? false,
      operations: derived?.offered ? derived.tools.length : 0,
      errors: derived?.errors ?? [],
      unavailable: derived?.unavailable ?? null,
    };
  });
  const { sandboxed, reason, replacedAt, lastReplacement } = host.status;
  return { dir, exists: listing.exists, files, host: { sandboxed, reason, error, replacedAt, lastReplacement } };
}
