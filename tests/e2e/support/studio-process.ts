// Starts the production build as a separate server, for tests about starting and stopping it, the way `npm start`
// serves it: scripts/serve.mjs, which stamps each request's socket address (R-req-trusted-proxy).
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { seedDataDir } from "./pglite-template";

export type Studio = { url: string; process: ChildProcess; output: () => string; stop: () => Promise<number | null> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startStudio(env: Record<string, string>): Promise<Studio> {
  const port = await freePort();
  if (env.QUIVER_DATA_DIR) seedDataDir(env.QUIVER_DATA_DIR, env.DATABASE_URL ?? process.env.DATABASE_URL);
  const serve = path.join(process.cwd(), "scripts", "serve.mjs");
  const child = spawn(process.execPath, [serve, "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_MANUAL_SIG_HANDLE: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const studio: Studio = {
    url,
    process: child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the studio exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      const body = (await res.json()) as { ok: boolean; error?: string };
      // 200 once migrated; a 503 that is not "still starting" is a start-up failure worth returning too.
      if (body.ok || !body.error?.includes("still starting")) return studio;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await studio.stop();
  throw new Error(`the studio did not answer within 30 s:\n${output}`);
}
