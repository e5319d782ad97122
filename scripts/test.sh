#!/usr/bin/env bash
# `npm test`: every check, in the order that fails fastest: types, lint, the layers, rule citations, the tool host's
# Python tests, unit and integration tests, then the production build driven by Playwright in Chromium. Steps that
# mostly wait run beside steps that mostly compute (R-ops-ci-overlap): the Python tests beside the checks and vitest,
# the takeover tests beside the other tests (R-ops-ci-takeover-lane), the chaos test beside the build and Playwright.
# A step begun beside others keeps its output apart and prints it whole once it has ended; any step failing fails the
# run, once those beside it have ended too.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
node scripts/node-floor.mjs

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Chromium is missing: installing Debian's chromium with apt-get…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The end-to-end tests need Chromium at $chromium: install it with 'sudo apt-get install chromium', or set CHROMIUM_PATH to a Chromium binary." >&2
    exit 1
  fi
fi

step() { printf '\n== %s\n' "$1"; }

logs=$(mktemp -d "${TMPDIR:-/tmp}/quiver-test-XXXXXX")
trap 'rm -rf "$logs"' EXIT

# Steps begun in the background, by number: the group each belongs to, its title and its pid.
begun=0
declare -a job_group job_title job_pid
# begin group "title" function: starts the function now, into a log of its own.
begin() {
  local n=$begun
  begun=$((n + 1))
  job_group[n]=$1
  job_title[n]=$2
  (
    trap 'echo "$((SECONDS - began))" >"$logs/$n.s"' EXIT
    began=$SECONDS
    "$3"
  ) >"$logs/$n.log" 2>&1 &
  job_pid[n]=$!
}
# collect [group]: waits for the steps begun in the group (every group when none is named), then prints each one's
# log under its title and how long it took, in the order they were begun; fails when any failed.
collect() {
  local n rc failed=0
  for n in "${!job_pid[@]}"; do
    if [ -n "${1:-}" ] && [ "${job_group[n]}" != "$1" ]; then continue; fi
    rc=0
    wait "${job_pid[n]}" || rc=$?
    step "${job_title[n]} ($(cat "$logs/$n.s" 2>/dev/null || echo "?") s)"
    cat "$logs/$n.log"
    if [ "$rc" -ne 0 ]; then
      echo "Failed: ${job_title[n]} (exit $rc)." >&2
      failed=1
    fi
    unset "job_pid[n]"
  done
  return "$failed"
}

typecheck() { npx tsc --noEmit -p .; }
lint() { npx eslint . --max-warnings 0; }
layers() { npm run --silent lint:layers; }
citations() { node scripts/check-citations.mjs; }
toolhost() {
  if [ -d server/toolhost/tests ]; then
    python3 -W error -m unittest discover -s server/toolhost/tests -t server/toolhost
  else
    echo "Skipped: no server/toolhost/tests."
  fi
}
# The tests of takeovers between studio processes mostly wait for leases to lapse: one file at a time beside the other
# tests' two workers, rather than in one of them (R-ops-ci-takeover-lane).
takeovers() { npx vitest run --project takeovers --maxWorkers 1; }
# It kills studio processes for up to two minutes, on a database of its own, after the other tests: they would slow
# the workers it restarts. The build, then the start of the end-to-end tests, run beside it while it mostly waits
# (R-ops-ci-overlap).
chaos() {
  if [ -n "${DATABASE_URL:-}" ]; then
    npx vitest run --config tests/chaos/vitest.config.mts
  else
    echo "Skipped: DATABASE_URL is unset (the chaos test needs a PostgreSQL whose user may create a database)."
  fi
}
# The unit and integration tests. A test worker that a signal killed (Node's own crash with PGlite's WebAssembly, which
# no test's code can cause: R-ops-test-native-crash) failed no assertion: when that is the run's only failure, the files
# it was running run once more on their own, and fail the run if anything fails again.
suite() {
  local log="$logs/suite.log" crashed
  if npx vitest run --project unit --project integration 2>&1 | tee "$log"; then return 0; fi
  crashed=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -a -o "exited unexpectedly with signal SIG[A-Z]* during [a-z]* state while running test file [^ ]*" | sed 's/.* test file //' | sort -u || true)
  if [ -z "$crashed" ] || sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -a -E -q "(Tests|Test Files) +[0-9]+ failed"; then return 1; fi
  echo "A test worker was killed by a signal while it ran: $(echo "$crashed" | tr '\n' ' ')— those files run once more (R-ops-test-native-crash)."
  # shellcheck disable=SC2086
  npx vitest run --project unit --project integration $crashed
}
# Every check fails the run, but only once the steps begun beside it have ended and been printed.
begin python "tool host (Python, warnings as errors)" toolhost
begin checks "type check" typecheck
begin checks "lint" lint
begin checks "layers (one-way imports, no cycles)" layers
begin checks "rule citations (docs/rules.md ids, no outside documents)" citations
if ! collect checks; then
  collect || true
  exit 1
fi

step "unit and integration tests"
failed=0
begin takeovers "takeovers between studio processes (vitest's takeovers project)" takeovers
suite || failed=1
collect python || failed=1
collect takeovers || failed=1
[ "$failed" = 0 ] || exit 1

# The chaos test's log comes after the end-to-end tests', which start as soon as the build is done.
begin chaos "durable runs under SIGKILL (PostgreSQL)" chaos
step "production build"
# The type check above passed, so the build skips its own (R-ops-build-types-once).
if QUIVER_TYPES_CHECKED=1 npx next build; then
  step "end-to-end tests (Chromium)"
  npx playwright test || failed=1
else
  failed=1
fi
collect chaos || failed=1
exit "$failed"
