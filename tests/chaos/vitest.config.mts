// The chaos test of durable runs, apart from the other tests: it kills studio processes for up to two minutes, so it
// runs alone after them (scripts/test.sh) on a database of its own made from DATABASE_URL's server.
import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "..", "..") } },
  test: {
    root: path.resolve(import.meta.dirname, "..", ".."),
    include: ["tests/chaos/**/*.chaos.ts"],
    environment: "node",
    env: { DATABASE_URL: "", QUIVER_TEST_DATABASE_URL: process.env.DATABASE_URL ?? "" },
    testTimeout: 240_000,
    hookTimeout: 90_000,
    maxWorkers: 1,
  },
});
