#!/usr/bin/env bash
# Source this to run qgis_process.bin (or standalone PyQGIS) headless with this repo as the
# `cityplanner` plugin and the venv's packages visible. Creates a scratch profile.
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CITYPLANNER_QGIS_HOME="${CITYPLANNER_QGIS_HOME:-$_root/build/qgis-home}"
mkdir -p "$CITYPLANNER_QGIS_HOME/plugins" "$CITYPLANNER_QGIS_HOME/profile"
ln -sfn "$_root" "$CITYPLANNER_QGIS_HOME/plugins/cityplanner"
export QGIS_PLUGINPATH="$CITYPLANNER_QGIS_HOME/plugins"
export QGIS_CUSTOM_CONFIG_PATH="$CITYPLANNER_QGIS_HOME/profile"
export QT_QPA_PLATFORM=offscreen
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$CITYPLANNER_QGIS_HOME/runtime}"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
_site="$(ls -d "$_root"/.venv/lib/python3*/site-packages 2>/dev/null | head -1)"
export PYTHONPATH="$_root:${_site}${PYTHONPATH:+:$PYTHONPATH}"
qgis_process.bin plugins enable cityplanner </dev/null >/dev/null 2>&1 || true  # it reads stdin otherwise
