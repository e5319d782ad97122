#!/usr/bin/env bash
# `npm test`: every check, in the order that fails fastest: types, lint, the layers, rule citations, the tool host's
# Python tests, unit and integration tests, then the production build driven by Playwright in Chromium. Steps that
# mostly wait run beside steps that mostly compute (R-ops-ci-overlap): each one's output is kept apart and printed
# whole, in this order, and any one failing fails the run once its companions have ended.
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

# together "title" function ["title" function]…: runs the functions at once, each into a log of its own, then prints
# each log under its title and how long it took, in the order given; fails when any failed.
together() {
  local titles=() pids=() i failed=0 rc
  while [ $# -gt 0 ]; do
    titles+=("$1")
    (
      trap 'echo "$((SECONDS - began))" >"$logs/${#pids[@]}.s"' EXIT
      began=$SECONDS
      "$2"
    ) >"$logs/${#pids[@]}.log" 2>&1 &
    pids+=($!)
    shift 2
  done
  for i in "${!pids[@]}"; do
    rc=0
    wait "${pids[$i]}" || rc=$?
    step "${titles[$i]} ($(cat "$logs/$i.s" 2>/dev/null || echo "?") s)"
    cat "$logs/$i.log"
    if [ "$rc" -ne 0 ]; then
      echo "Failed: ${titles[$i]} (exit $rc)." >&2
      failed=1
    fi
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
# It kills studio processes for up to two minutes, on a database of its own, after the other tests: they would slow
# the workers it restarts. The build beside it computes while it mostly waits (R-ops-ci-overlap).
chaos() {
  if [ -n "${DATABASE_URL:-}" ]; then
    npx vitest run --config tests/chaos/vitest.config.mts
  else
    echo "Skipped: DATABASE_URL is unset (the chaos test needs a PostgreSQL whose user may create a database)."
  fi
}
build() { npx next build; }

together \
  "type check" typecheck \
  "lint" lint \
  "layers (one-way imports, no cycles)" layers \
  "rule citations (docs/rules.md ids, no outside documents)" citations \
  "tool host (Python, warnings as errors)" toolhost

step "unit and integration tests"
npx vitest run

together \
  "durable runs under SIGKILL (PostgreSQL)" chaos \
  "production build" build

step "end-to-end tests (Chromium)"
npx playwright test
