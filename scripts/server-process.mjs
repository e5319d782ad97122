// How the studio's server process (scripts/serve.mjs) is started by `npm start` and timed by `npm run bench:start`, so
// that the figure is the start a person gets.

/**
 * glibc's malloc settings for the server, each unless the caller's environment chose its own (R-boot-malloc): two
 * arenas, since V8's compiler and garbage-collector threads each took one and kept what they freed resident in it; and
 * fixed thresholds of 128 KiB for handing a large block to mmap and for giving the heap's free top back, where glibc
 * otherwise raises both after the first large blocks freed and keeps everything below them.
 */
const MALLOC = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072", MALLOC_TRIM_THRESHOLD_: "131072" };

/** The server's environment: the caller's, with the malloc settings it does not set itself. */
export function serverEnv(env) {
  return { ...MALLOC, ...env };
}
