import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

describe("parseEnv", () => {
  it("defaults to the embedded database, .quiver and ./tools under the working directory", () => {
    const env = parseEnv({}, "/srv/studio");
    expect(env.databaseUrl).toBeUndefined();
    expect(env.dataDir).toBe(path.resolve("/srv/studio/.quiver"));
    expect(env.toolsDir).toBe(path.resolve("/srv/studio/tools"));
    expect(env.port).toBe(3000);
  });

  it("takes QUIVER_DATA_DIR, QUIVER_TOOLS_DIR and PORT", () => {
    const env = parseEnv({ QUIVER_DATA_DIR: "/var/q", QUIVER_TOOLS_DIR: "my-tools", PORT: "8080" }, "/srv");
    expect(env.dataDir).toBe("/var/q");
    expect(env.toolsDir).toBe("/srv/my-tools");
    expect(env.port).toBe(8080);
  });

  it("switches to PostgreSQL when DATABASE_URL is a postgres URL", () => {
    expect(parseEnv({ DATABASE_URL: "postgres://u:p@127.0.0.1/q" }).databaseUrl).toBe("postgres://u:p@127.0.0.1/q");
  });

  it("treats an empty DATABASE_URL as unset", () => {
    expect(parseEnv({ DATABASE_URL: "" }).databaseUrl).toBeUndefined();
  });

  it("refuses a DATABASE_URL that is not PostgreSQL, saying which setting is wrong", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL must be a postgres/);
  });

  it("refuses a port that is not a port", () => {
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT/);
  });

  it("trusts no proxy's X-Forwarded-For unless QUIVER_TRUSTED_PROXIES names it (R-req-trusted-proxy)", () => {
    expect(parseEnv({}).trustedProxies).toEqual([]);
    expect(parseEnv({ QUIVER_TRUSTED_PROXIES: " 10.0.0.2, 172.16.0.0/12,fd00::/8 " }).trustedProxies).toEqual([
      "10.0.0.2",
      "172.16.0.0/12",
      "fd00::/8",
    ]);
  });

  it("R-queue-role: takes QUIVER_ROLE, all by default, and refuses web or worker without a shared database", () => {
    expect(parseEnv({}).role).toBe("all");
    expect(parseEnv({ QUIVER_ROLE: "worker", DATABASE_URL: "postgres://u:p@db/quiver" }).role).toBe("worker");
    expect(() => parseEnv({ QUIVER_ROLE: "web" })).toThrow(/QUIVER_ROLE=web needs DATABASE_URL/);
    expect(() => parseEnv({ QUIVER_ROLE: "both", DATABASE_URL: "postgres://u:p@db/quiver" })).toThrow(/QUIVER_ROLE must be all, web or worker/);
  });

  it("R-queue-job: takes QUIVER_MAX_RUNS, 500 by default, and refuses a value that is not a whole number from 1 to 10000 with a sentence", () => {
    expect(parseEnv({}).maxRuns).toBe(500);
    expect(parseEnv({ QUIVER_MAX_RUNS: "40" }).maxRuns).toBe(40);
    expect(parseEnv({ QUIVER_MAX_RUNS: "10000" }).maxRuns).toBe(10_000);
    for (const bad of ["0", "-3", "2.5", "many", "10001"]) {
      expect(() => parseEnv({ QUIVER_MAX_RUNS: bad })).toThrow(/QUIVER_MAX_RUNS must be a whole number of runs from 1 to 10000/);
    }
  });

  it("refuses a trusted proxy that is not an address or a range, saying which setting is wrong", () => {
    for (const value of ["proxy.internal", "10.0.0.0/33", "10.0.0.1/8/1", "::1/129"]) {
      expect(() => parseEnv({ QUIVER_TRUSTED_PROXIES: value })).toThrow(/QUIVER_TRUSTED_PROXIES must list IP addresses/);
    }
  });
});
