// Which tree a run uses (R-version-pinned): a developer's playground run the working tree, every other run the
// latest published version, chosen when its row is written and kept there, so whichever process takes the run,
// now or after a takeover, materialises that same version (R-version-materialise). Edit when who runs what changes.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runs } from "@/db/schema";
import { LATEST_VERSION, latestVersion } from "@/server/tree/versions";
import { Versions } from "@/server/tree/materialise";

/** `working`: the tree folder as it is now, for a developer trying what they edit; otherwise the published version. */
export type TreeChoice = "working" | "published";

/**
 * The value of a new run's `tree_version`: null for the working tree; a specialist's run its asker's (one run, one
 * tree); else the latest published version, read in the same statement that writes the row. Before the first
 * publish that is null too: a studio that never published runs its working tree (R-version-none).
 */
export function treeVersionFor(choice: TreeChoice, parentRunId?: string): SQL<number | null> | null {
  if (parentRunId) return sql<number | null>`(select ${runs.treeVersion} from ${runs} where ${runs.id} = ${parentRunId})`;
  return choice === "working" ? null : LATEST_VERSION;
}

/** The tree folders of this process's runs: the working tree, or a published version written into the data folder. */
export class RunTrees {
  private readonly versions: Versions;

  constructor(
    private readonly db: Db,
    private readonly working: string,
    dataDir: string,
  ) {
    this.versions = new Versions({ db, dataDir });
  }

  /** The folder the run's tools are read from. */
  of(row: { treeVersion: number | null }): Promise<string> {
    return row.treeVersion === null ? Promise.resolve(this.working) : this.versions.tree(row.treeVersion);
  }

  /** The folder a run started now outside a developer's playground would read: the latest version's, or the working tree before any publish. */
  async latest(): Promise<string> {
    return this.of({ treeVersion: await latestVersion(this.db) });
  }

  close(): void {
    this.versions.close();
  }
}
