#!/usr/bin/env bash
# `npm test`: every check, in the order that fails fastest: types, lint, the layers, rule citations, the tool host's
# Python tests, unit and integration tests, then the production build driven by Playwright in Chromium.
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

step "type check"
npx tsc --noEmit -p .

step "lint"
npx eslint . --max-warnings 0

step "layers (one-way imports, no cycles)"
npm run --silent lint:layers

step "rule citations (docs/rules.md ids, no outside documents)"
node scripts/check-citations.mjs

if [ -d server/toolhost/tests ]; then
  step "tool host (Python, warnings as errors)"
  python3 -W error -m unittest discover -s server/toolhost/tests -t server/toolhost
fi

step "unit and integration tests"
npx vitest run

# Alone, after the others: it kills studio processes for up to two minutes, on a database of its own.
step "durable runs under SIGKILL (PostgreSQL)"
if [ -n "${DATABASE_URL:-}" ]; then
  npx vitest run --config tests/chaos/vitest.config.mts
else
  echo "Skipped: DATABASE_URL is unset (the chaos test needs a PostgreSQL whose user may create a database)."
fi

step "production build"
npx next build

step "end-to-end tests (Chromium)"
npx playwright test
