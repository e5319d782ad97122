#!/usr/bin/env node
// The `quiver` command: loads tsx from this package's node_modules and runs server/cli/main.ts, from any directory.
// Edit only if the CLI moves; the commands themselves live in server/cli/. Outside the repository tsx does
// not map `@/` imports, so the CLI's modules (server/cli, server/host) import each other by relative paths.
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../server/cli/main.ts", import.meta.url);
process.exitCode = await main(process.argv.slice(2));
