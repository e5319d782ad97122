// How the studio's server process (scripts/serve.mjs) is started by `npm start` and timed by `npm run bench:start`, so
// that the figure is the start a person gets.

/**
 * The server's environment: the caller's, with glibc's malloc held to two arenas unless the caller chose otherwise.
 * V8's compiler and garbage-collector threads each took an arena of their own, and memory freed in one stayed
 * resident there: about 30 MiB of an idle studio, at no cost measured to the run loop's throughput (R-boot-malloc).
 */
export function serverEnv(env) {
  return { MALLOC_ARENA_MAX: "2", ...env };
}
