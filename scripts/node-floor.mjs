// Refuses an older Node with one sentence before anything else runs: npm checks `engines` only when
// installing, so `npm start` or `npm test` on an old Node would otherwise end in a dependency's stack
// trace. Imported first by scripts/start.mjs and run by scripts/test.sh; the floor is package.json's.
import fs from "node:fs";

const manifest = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const floor = manifest.engines.node.replace(/^>=\s*/, "");

const [major, minor] = process.versions.node.split(".").map(Number);
const [floorMajor, floorMinor = 0] = floor.split(".").map(Number);
if (major < floorMajor || (major === floorMajor && minor < floorMinor)) {
  console.error(
    `[quiver] Quiver needs Node 24 (or ${floor} or later) but this is Node ${process.version}: ` +
      "install Node 24 from https://nodejs.org or with your version manager (.node-version names it), " +
      "or follow README's Contributing section to use one from a cache folder beside this one.",
  );
  process.exit(1);
}
