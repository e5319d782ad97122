// Every studio this repository starts (npm start, Playwright's web server, the e2e tests' own studios, the benches)
// is served by scripts/serve.mjs, so each resolves a request's address the same way: under `next start` nobody stamps
// the socket's address and every sign-in counts as coming from one address (R-req-trusted-proxy).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..", "..", "..");

/** The files that start a studio, and where each says what it runs. */
const STARTERS = ["scripts/start.mjs", "playwright.config.ts", "tests/e2e/support/studio-process.ts", "bench/start.mjs", "bench/preview.mjs"];

function sources(folder: string): string[] {
  return fs
    .readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(c|m)?[jt]s$/.test(name))
    .map((name) => path.join(folder, name));
}

/** `next start` as a command line, or Next's bin handed "start" as its first argument. */
const NEXT_START = /\bnext start\b|\bnextBin\s*,\s*\[?\s*"start"|\[\s*nextBin\s*,\s*"start"/;

describe("the studios this repository starts", () => {
  it("are each served by scripts/serve.mjs", () => {
    for (const file of STARTERS) {
      expect(fs.readFileSync(path.join(root, file), "utf8"), file).toMatch(/serve\.mjs/);
    }
  });

  it("are never started with `next start`, which cannot see the client's socket", () => {
    const files = [...sources("bench"), ...sources("scripts"), ...sources("tests/e2e"), "playwright.config.ts"];
    const starting = files.filter((file) => {
      const code = fs.readFileSync(path.join(root, file), "utf8").replace(/^\s*\/\/.*$/gm, "");
      return NEXT_START.test(code);
    });
    expect(starting).toEqual([]);
  });
});
