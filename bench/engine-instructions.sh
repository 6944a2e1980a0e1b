#!/usr/bin/env bash
# The engine bench's cost in instructions per command, counted by valgrind (callgrind), which does not
# depend on what else the machine is doing. Node runs with --single-threaded (V8's compiler and garbage
# collector work on the main thread): with its helper threads, two runs of one build differed by 50%
# (7.5 and 11.2 G instructions); without them, by 0.04%. Time per command swings by ±20% between runs
# on this shared host.
# Runs bench/engine-bench.ts (no floor) twice, at ORDERS and at 1,000 commands, and divides the
# difference of the totals by the difference of the commands, so start-up and the setup's 20,000
# deposits cancel out. Garbage collection and compiling are counted; cache misses are not, and the
# single-threaded engine is not the production one (where the collector and compiler run beside it).
# Prints ONE line of JSON. About 4 minutes at the default 100,000. Run: npm run bench:instructions [-- 100000]
set -euo pipefail
cd "$(dirname "$0")/.."
orders="${1:-100000}"
node_bin="$(node -p 'process.execPath')"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
count() {
  valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file="$out/cg.$1" \
    "$node_bin" --single-threaded bench/engine-bench.ts --no-floor --orders "$1" >/dev/null 2>"$out/log.$1"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log.$1"
}
big="$(count "$orders")"
small="$(count 1000)"
node -e "
const [big, small, orders] = process.argv.slice(1).map(Number);
console.log(JSON.stringify({ bench: 'engine-instructions', orders, instructions: big, baseline1000: small,
  instructionsPerCommand: Math.round((big - small) / (orders - 1000)), node: process.version }));
" "$big" "$small" "$orders"
