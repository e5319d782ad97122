#!/usr/bin/env node
// Serves the studio's production build (what `next start` does, through Next's custom-server API), and stamps the
// socket's own address on every request as x-quiver-peer, over any value the client sent: route handlers never
// see the socket, and X-Forwarded-For is whatever a client wrote (R-req-trusted-proxy, server/http/address.ts).
// Takes `next start`'s -p/--port and -H/--hostname. `npm start` runs it after building; Playwright starts it too.
import fs from "node:fs";
import http from "node:http";
import module from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

// V8's compiled code for every module (Next's server, the build's chunks) kept between starts in the system's temporary
// folder, checked against each file's contents: a start after the first compiles almost nothing (R-ops-compile-cache).
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function option(names, fallback) {
  const args = process.argv.slice(2);
  const at = args.findIndex((arg) => names.includes(arg));
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
}

const port = Number(option(["-p", "--port"], process.env.PORT ?? "3000"));
const hostname = option(["-H", "--hostname"], undefined);

process.env.NODE_ENV = "production";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
// The same spelling as PEER_HEADER and the symbol in server/http/address.ts: that module trusts the header only
// when this process said it stamps it.
const PEER_HEADER = "x-quiver-peer";
globalThis[Symbol.for("quiver.peer-stamped")] = true;

// The configuration the build resolved and checked, as Next's standalone server hands it over: Next then neither
// loads next.config.mjs nor validates it again, about 100 ms of a start (R-boot-built-config). Without a build
// there is nothing to read, and Next's own loading says what is missing.
try {
  const built = JSON.parse(fs.readFileSync(path.join(root, ".next", "required-server-files.json"), "utf8"));
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built.config);
} catch {
  delete process.env.__NEXT_PRIVATE_STANDALONE_CONFIG;
}
// The embedded database's thread starts now, before Next loads on this one, and on an existing data folder it takes the
// folder's lock and opens it at once: its start takes the other core while Next loads (R-boot-db-first). Not for a
// studio on PostgreSQL. The folder is the studio's own (server/env.ts) only as long as nothing else names it: Next
// reads .env files later, so with one of them here the thread waits to be told its folder.
if (!process.env.DATABASE_URL && (process.env.QUIVER_ROLE ?? "all") === "all") {
  const { startEarlyThread } = await import("../db/pglite-early.mjs");
  const envFiles = fs.readdirSync(root).some((name) => name === ".env" || name.startsWith(".env."));
  startEarlyThread(envFiles || process.env.QUIVER_DATA_DIR === "" ? undefined : path.resolve(process.cwd(), process.env.QUIVER_DATA_DIR ?? ".quiver"));
}
const { default: next } = await import("next");
const app = next({ dev: false, dir: root, hostname, port });
const handle = app.getRequestHandler();
try {
  await app.prepare();
} catch (err) {
  console.error(`[quiver] the studio could not start: ${err.message} (\`npm start\` builds it first when needed).`);
  process.exit(1);
}

// A worker drives runs and serves nothing but its health, which says whether it started (R-queue-role), and the
// metrics of the runs it drives (R-metrics-process).
const workerOnly = process.env.QUIVER_ROLE === "worker";
const WORKER_ANSWERS = new Set(["/api/health", "/api/metrics"]);
const WORKER_ONLY = "This studio process is a worker (QUIVER_ROLE=worker): it drives runs and answers only /api/health and /api/metrics.";

// Once the first answer has gone out and no request is in flight, the start-up begins what no first page needs (the run
// queue, the scheduler: R-boot-after-page), and the compiled code loaded so far is written to the cache. The same
// spelling as in server/startup-state.ts.
const SERVED = Symbol.for("quiver.first-page-served");
const QUIET_MS = 100;
let inFlight = 0;
let quietTimer = null;
function answered() {
  inFlight -= 1;
  const served = (globalThis[SERVED] ??= {});
  if (served.served || inFlight > 0) return;
  clearTimeout(quietTimer);
  quietTimer = setTimeout(() => {
    if (inFlight > 0 || served.served) return;
    served.served = true;
    for (const listener of served.listeners ?? []) listener();
    served.listeners = [];
    setTimeout(() => module.flushCompileCache?.(), 5_000).unref();
  }, QUIET_MS);
}

const server = http.createServer((req, res) => {
  inFlight += 1;
  res.once("close", answered);
  if (workerOnly && !WORKER_ANSWERS.has((req.url ?? "").split("?")[0])) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ message: WORKER_ONLY }));
    return;
  }
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
  handle(req, res).catch((err) => {
    console.error(`[quiver] ${req.method} ${req.url}: ${err.message}`);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ message: "The studio could not answer this request; its log says why." }));
  });
});
server.listen(port, hostname, () => {
  console.log(`[quiver] listening on http://${hostname ?? "localhost"}:${port}`);
});
