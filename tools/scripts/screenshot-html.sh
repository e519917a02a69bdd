#!/usr/bin/env bash
# Takes a screenshot of an HTML report in headless Chromium, to look at
# what a reader sees. Not used by CI (CI needs no browser).
#
#   tools/scripts/screenshot-html.sh REPORT.html SHOT.png [WIDTH,HEIGHT]
#
# Chromium comes from Debian: apt-get update && apt-get install -y chromium
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 REPORT.html SHOT.png [WIDTH,HEIGHT]" >&2
  exit 2
fi
page=$(realpath "$1")
shot=$2
size=${3:-1400,3000}
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  echo "$0: chromium not found (apt-get install -y chromium)" >&2
  exit 2
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars \
  --screenshot="$shot" --window-size="$size" "file://$page" 2>/dev/null
echo "$shot"
