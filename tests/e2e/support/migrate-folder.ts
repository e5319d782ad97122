// Opens and migrates an embedded database in the data folder given, then closes it: the end-to-end tests' template
// (tests/e2e/support/pglite-template.ts, R-ops-test-pglite-template).
import { openDatabase } from "@/db/client";

async function main(dataDir: string | undefined): Promise<void> {
  if (!dataDir) throw new Error("usage: migrate-folder.ts <data folder>");
  const database = await openDatabase({ dataDir });
  await database.close();
}

void main(process.argv[2]).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
