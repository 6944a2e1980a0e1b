#!/usr/bin/env bash
# The engine bench's cost in instructions per command at steady state, counted by valgrind (callgrind),
# which does not depend on what else the machine is doing. Node runs with --single-threaded (V8's
# compiler and garbage collector work on the main thread): with its helper threads, two runs of one
# build differed by 50% (7.5 and 11.2 G instructions); without them, by 0.04%. Time per command swings
# by ±20% between runs on this shared host.
# Runs bench/engine-bench.ts (no floor) at SMALL and at SMALL + 100,000 commands, side by side, and
# divides the difference of the totals by 100,000. SMALL (default 110,000) is past the warm-up: the code
# is optimised and the 100,000-command idempotency window is full. (Until session 8 the script divided
# 100,000 minus 1,000 commands, which put ~13,000 instructions a command of compiling, baseline code
# and an empty window's cheaper inserts into the figure: 30,067 then, against ~13,000-17,500 at steady
# state.)
# The figure to compare builds by is `javaScriptPerCommand`: the instructions of the code V8 compiled
# from JavaScript, which repeated within ~3% between two runs of one build. `builtinsPerCommand` (V8's
# builtins it calls: property access, write barriers, allocation) moved by ~15%, with the collector's
# phase; `runtimePerCommand` (V8's C++: mostly the garbage collector, single-threaded here, so a larger
# share than in a normal run) by thousands, with where the collector's full cycles fall. Cache misses are
# not counted. Both runs write V8's code map (--perf-basic-prof: /tmp/perf-PID.map, removed once read,
# and a code log kept in the temporary directory) to name the JavaScript code.
# With --functions the script also prints the difference per function (JavaScript functions by name,
# V8 and libc by symbol; inlined functions count in their caller) as more lines of JSON after the first.
# With --core floor it counts the bench's floor instead (engine-floor.ts, --only-floor), for comparison;
# --floor-features window,events gives that floor the engine's window and/or events (FloorFeatures);
# --remember N sizes the idempotency window (the engine bench's option).
# Prints ONE line of JSON (more with --functions). About 2 minutes. Run: npm run bench:instructions
# [-- --small 110000 --functions --core engine|floor --floor-features window,events --remember N]
set -euo pipefail
cd "$(dirname "$0")/.."
small=110000
functions=0
core=engine
features=()
while [ $# -gt 0 ]; do
  case "$1" in
    --floor-features) core=floor; label="floor:$2"; features+=(--floor-features "$2"); shift 2 ;;
    --remember) features+=(--remember "$2"); shift 2 ;;
    --small) small="$2"; shift 2 ;;
    --functions) functions=1; shift ;;
    --core) core="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
big=$((small + 100000))
case "$core" in
  engine) which=--no-floor ;;
  floor) which=--only-floor ;;
  *) echo "--core engine or floor" >&2; exit 2 ;;
esac
node_bin="$(node -p 'process.execPath')"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
count() {
  valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file="$out/cg.$1" \
    "$node_bin" --single-threaded --perf-basic-prof --logfile="$out/v8.$1.log" --no-logfile-per-isolate bench/engine-bench.ts "$which" "${features[@]}" --orders "$1" >/dev/null 2>"$out/log.$1"
}
count "$small" &
first=$!
count "$big"
wait "$first"
node bench/callgrind-functions.ts "$out" "$small" "$big" "$functions" "${label:-$core}"
