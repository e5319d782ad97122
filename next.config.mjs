// Next.js configuration. Edit when a route, a server-only package or the dev origin changes.

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // PGlite ships WebAssembly and a data bundle it loads from its own folder; pg has optional native parts;
  // proper-lockfile (with graceful-fs under it) is plain Node code, loaded once per process rather than per bundle;
  // pg-boss drives runs from the one process-wide queue and loads pg itself.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "pg-boss", "proper-lockfile"],
  // `next dev` serves its internal files only to localhost unless told otherwise (R-ops-dev-origins).
  allowedDevOrigins: ["127.0.0.1"],
  poweredByHeader: false,
  // `npm test` type-checks the whole project before it builds: its build need not do it again (R-ops-build-types-once).
  typescript: { ignoreBuildErrors: process.env.QUIVER_TYPES_CHECKED === "1" },
  experimental: {
    // `next start` requires every route's server code as it starts, before any request: each route has its own copy
    // of the modules it shares, so the idle studio held all of them. A route is loaded on its first request instead
    // (R-boot-routes-on-demand).
    preloadEntriesOnStart: false,
  },
};

export default nextConfig;
