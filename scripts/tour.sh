#!/usr/bin/env bash
# The guided tour (docs/tour.py) in a real QGIS desktop window under Xvfb: screenshots and
# tour.json into OUT (default docs/guide). Usage: scripts/tour.sh [OUT]
set -euo pipefail
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(mkdir -p "${1:-$_root/docs/guide}" && cd "${1:-$_root/docs/guide}" && pwd)"
source "$_root/scripts/qgis_env.sh"
unset QT_QPA_PLATFORM
cd "$_root"
CITYPLANNER_TOUR_OUT="$out" xvfb-run -a -s "-screen 0 1600x1000x24" \
    qgis --nologo --noversioncheck --code "$_root/docs/tour.py" </dev/null
test -f "$out/tour.json"
