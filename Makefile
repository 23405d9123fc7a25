# CityPlanner — two commands do everything on a fresh Debian 12 machine:
#   make demo   the main job on the bundled real data (writes demo-output/)
#   make test   the test suite
#   make test-fast  the core tests alone, for the inner loop (no QGIS, model, torch or slow tests)
# Both run `make setup` first (idempotent; a repeat run takes seconds).
PY := .venv/bin/python
export QT_QPA_PLATFORM := offscreen

.PHONY: setup test test-fast test-scale test-ltr demo package wheelhouse qgis guide clean

setup:
	@bash scripts/setup.sh

test: setup
	$(PY) -m ruff check .
	$(PY) scripts/enum_check.py
	$(PY) -m pytest -q -p no:cacheprovider -m "not scale"

# The builds at scale (20,000 roads, own links, residents under 2 GB: ~10-20 min on 2 cores);
# `bench --suite scale --tasks memory` measures the same. docs/limits.md (Memory)
test-scale: setup
	$(PY) -m pytest -q -p no:cacheprovider -m scale

# The inner loop (docs/dev.md#tests): the core without QGIS, the model, torch and the tests marked
# slow (real-process races, memory, the Dask cluster, judged request sets). CI runs `make test`.
test-fast: setup
	$(PY) -m ruff check .
	$(PY) -m pytest -q -p no:cacheprovider tests/core -m "not qgis and not model and not torch and not slow"

demo: setup
	@bash -c 'source scripts/qgis_env.sh && $(PY) scripts/demo.py --out demo-output'

# The plugin's QGIS tests against QGIS 3.44 LTR (Debian 13 + trixie-backports) in a chroot (root).
# A fresh machine first builds the root fs (cached in ~/.cache/cityplanner): ~3-9 min.
test-ltr:
	@bash scripts/ltr/test.sh

# The ZIP a user installs in QGIS desktop (Plugins › Install from ZIP).
package:
	@python3 scripts/package.py

# build/wheelhouse: wheels for an offline "Install dependencies" into QGIS 3.22 on Debian 12
# (shapely and pyogrio compiled against QGIS's GEOS/GDAL, so users need no compiler).
wheelhouse: setup
	@bash scripts/wheelhouse.sh build/wheelhouse

# QGIS desktop with this repo linked as the plugin and the venv's packages visible.
qgis: setup
	@bash -c 'source scripts/qgis_env.sh && unset QT_QPA_PLATFORM && qgis'

# docs/guide/*.png: the user guide's screenshots, re-made by the guided tour in a real QGIS
# window under Xvfb (docs/tour.py; a few minutes: it runs the real model).
guide: setup
	@bash scripts/tour.sh docs/guide

clean:
	rm -rf build dist demo-output .pytest_cache
