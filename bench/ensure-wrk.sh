#!/usr/bin/env bash
# The HTTP benchmark's load generator is wrk (C, epoll: a few µs of CPU per request, so the load takes
# little of the two cores the servers need). Installs Debian's wrk package when missing; needs root, as
# on the project's machines.
set -euo pipefail
if command -v wrk >/dev/null; then exit 0; fi
echo "wrk is missing: installing Debian's wrk package..." >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq wrk >/dev/null
