#!/usr/bin/env node
// The `quiver` command, from any directory. `call` goes first to server/cli/call-fast.mjs, plain ESM that starts the
// Python tool host without loading tsx or the studio's TypeScript (R-cli-call-fast); every other command, and any
// call that module hands back (--sandbox, --help, bad input, a host that does not start), runs server/cli/main.ts
// through tsx. Outside the repository tsx does not map `@/` imports, so the CLI's modules (server/cli, server/host)
// import each other by relative paths.
const argv = process.argv.slice(2);

async function full() {
  const { tsImport } = await import("tsx/esm/api");
  const { main } = await tsImport("../server/cli/main.ts", import.meta.url);
  return main(argv);
}

let code = null;
if (argv[0] === "call" && process.env.QUIVER_CLI_FULL !== "1") {
  const { fastCall } = await import("../server/cli/call-fast.mjs");
  code = await fastCall(argv.slice(1));
}
process.exitCode = code ?? (await full());
