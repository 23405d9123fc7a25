#!/usr/bin/env bash
# The suite of `make test` (everything but the builds at scale) as two pytest processes side by
# side when the machine has two cores or more: on the 2-core target the serial run took ~33 min,
# most of it one busy core. Two plain pytest processes rather than pytest-xdist: each keeps its
# session fixtures (the installed QGIS profile, the built ZIP) and the os._exit ending of
# tests/conftest.py as they are; xdist workers would need both reworked.
# Shard A: the QGIS and install tests and the judged request sets; shard B: the rest of the core.
# Each shard has its own pytest temp root. CITYPLANNER_TEST_JOBS=1 runs one process.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
ARGS=(-q -p no:cacheprovider -m "not scale")
A=(tests/qgis tests/install tests/core/test_judged_sets.py)
jobs=${CITYPLANNER_TEST_JOBS:-$(nproc)}
if [ "$jobs" -lt 2 ]; then
    exec "$PY" -m pytest "${ARGS[@]}"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
"$PY" -m pytest "${ARGS[@]}" --basetemp="$tmp/a" "${A[@]}" >"$tmp/a.log" 2>&1 &
pid_a=$!
trap 'kill "$pid_a" 2>/dev/null; rm -rf "$tmp"' EXIT
"$PY" -m pytest "${ARGS[@]}" --basetemp="$tmp/b" tests \
    --ignore=tests/qgis --ignore=tests/install --ignore=tests/core/test_judged_sets.py
rc_b=$?
wait "$pid_a"
rc_a=$?
echo "---- shard A (QGIS, install, judged sets) ----"
cat "$tmp/a.log"
echo "---- make test: shard A exit $rc_a, shard B exit $rc_b, $((SECONDS - start)) s wall ----"
[ "$rc_a" -eq 0 ] && [ "$rc_b" -eq 0 ]
