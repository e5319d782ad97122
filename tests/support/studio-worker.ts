// A studio process without pages, for tests of several processes: the studio's own start-up (database, key check,
// the runtime's part of the run queue as QUIVER_ROLE says), then one JSON line each time the runs it drives change,
// so a test knows which process to kill. A start-up the studio refuses prints its sentence and exits with 3.
// Run with tsx; the studio's own SIGTERM handling stops it cleanly, and a SIGKILL is what the tests are for.
import { studioRuntime } from "@/server/runtime";
import { startStudio } from "@/server/startup";
import { startupFailure } from "@/server/startup-state";

const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ pid: process.pid, ...line })}\n`);

async function main(): Promise<void> {
  await startStudio();
  const failure = startupFailure();
  if (failure) {
    say({ refused: failure.sentence });
    process.exit(3);
  }
  const runtime = await studioRuntime();
  say({ ready: true });
  let last = "";
  setInterval(() => {
    const live = runtime.liveRuns().sort();
    const now = live.join(",");
    if (now !== last) say({ live });
    last = now;
  }, 50);
}

void main();
