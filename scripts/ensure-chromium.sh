#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (test tools that download their own browser cannot work here).
# Installs it when missing; needs root, as on the project's machines and CI.
set -euo pipefail
if [[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]]; then exit 0; fi
echo "Chromium is missing: installing Debian's chromium package..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-noto-core fonts-liberation >/dev/null
