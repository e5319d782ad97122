// One studio process of a two-process race test: saves a tree file through the real tRPC router when told to,
// at a wall-clock moment the test names, so two of these processes save the same file at the same moment.
// Reads one JSON order per line on stdin and answers one JSON line per order on stdout, with the HTTP status
// the save would have answered. Its tree, data folder and database come from the environment, as a studio's do.
import readline from "node:readline";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { closeDatabase, getDb } from "@/server/db";
import { createCallerFactory } from "@/server/trpc/init";
import { toolFilesRouter } from "@/server/trpc/routers/tool-files";

export type Order = { round: number; at: number; path: string; source: string; baseHash: string };
export type Answer = { round: number; status: number; message?: string };

const developer = { id: process.env.RACER_USER ?? "racer", email: "racer@quiver.test", name: "Racer", role: "developer" as const };
const caller = createCallerFactory(toolFilesRouter)({ headers: new Headers(), user: developer });

/** Sleeps most of the way, then spins: a timer alone lands a few milliseconds late, differently per process. */
async function until(at: number): Promise<void> {
  const wait = at - Date.now() - 3;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  while (Date.now() < at) {
    // Spin to the moment.
  }
}

async function save(order: Order): Promise<Answer> {
  await until(order.at);
  try {
    await caller.save({ path: order.path, source: order.source, baseHash: order.baseHash });
    return { round: order.round, status: 200 };
  } catch (err) {
    if (err instanceof TRPCError) return { round: order.round, status: getHTTPStatusCodeFromError(err), message: err.message };
    return { round: order.round, status: 500, message: String(err) };
  }
}

async function main(): Promise<void> {
  // The save also drops the person's draft: open the database before the first order, not inside the race.
  await getDb();
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const answer = await save(JSON.parse(line) as Order);
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
  await closeDatabase();
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
