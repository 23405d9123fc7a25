#!/usr/bin/env bash
# `make wheelhouse`: a folder of wheels that installs CityPlanner's runtime requirements into
# QGIS's Python offline (Plugins › CityPlanner › Install dependencies from a folder…, or
# `python3 -m plugin deps --install --prefix DIR --find-links WHEELHOUSE`).
# Built with QGIS's own Python (/usr/bin/python3) on the machine type it is meant for
# (here: Debian 12 / QGIS 3.22, x86_64). shapely and pyogrio are compiled against this
# system's GEOS/GDAL (the ones QGIS links), so the user needs no compiler; everything else is
# the registry's wheel. pip's own wheel is included for Pythons without pip.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-build/wheelhouse}"
PY="${WHEELHOUSE_PYTHON:-/usr/bin/python3}"
PIP=("$PY" -m pip)
[ -x .venv/bin/python ] && PIP=(.venv/bin/python -m pip)  # same interpreter version, newer pip
mkdir -p "$OUT"
rm -f "$OUT/.complete"
"${PIP[@]}" wheel -q --wheel-dir "$OUT" --no-binary shapely,pyogrio -r requirements.txt -c constraints.txt
"${PIP[@]}" download -q --dest "$OUT" --only-binary :all: --no-deps pip
# the stamp names the requirement files it was built from (the user-path test rebuilds on change)
cat requirements.txt constraints.txt | sha256sum | cut -d' ' -f1 > "$OUT/.complete"
echo "wheelhouse: $(ls "$OUT"/*.whl | wc -l) wheels in $OUT ($(du -sh "$OUT" | cut -f1))"
