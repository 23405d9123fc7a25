"""Send the plugin's own code to Dask workers that have the Python packages but not the plugin.

``shipment()`` packs the ``plugin`` package (and the resources its solve path reads) into a
zip in memory; ``shipment_plugin`` makes a Dask worker plugin that unpacks it into the worker's
local directory and puts that folder first on ``sys.path``. A folder rather than the zip
itself on ``sys.path`` (what ``Client.upload_file`` does with a zip): the MILP runs HiGHS in
a spawned interpreter started from ``plugin/util/spawned_child.py``, which must be a real file.
The scheduler keeps worker plugins and gives them to every worker that joins later, so a
worker restarted after a crash gets the code too.

This module is pickled *by value* (``cloudpickle.register_pickle_by_value``): the workers
cannot import ``plugin`` before the shipment has arrived, so its class must travel as code.
It therefore imports nothing from the plugin at module level.
"""
from __future__ import annotations

import hashlib
import io
import os
import shutil
import sys
import zipfile
from pathlib import Path
from typing import Any

#: resources the worker-side code reads (the constraint schema); the city data stays home
RESOURCE_DIRS = ("resources/constraints",)


def _package_layout() -> tuple[Path, str]:
    """(the folder holding ``plugin/``, the prefix in the zip): '' when the package is
    ``plugin``, 'cityplanner/' when it is ``cityplanner.plugin`` (inside QGIS)."""
    import importlib

    top = __name__.rsplit(".sweep.ship", 1)[0]          # 'plugin' or 'cityplanner.plugin'
    root = Path(importlib.import_module(top).__file__).resolve().parent.parent
    outer = top.rsplit(".", 1)[0] if "." in top else ""
    return root, (outer.replace(".", "/") + "/") if outer else ""


def shipment() -> tuple[bytes, str]:
    """(zip bytes, sha256 prefix) of the plugin's Python code and the resources workers read."""
    root, prefix = _package_layout()
    files = sorted(p for p in (root / "plugin").rglob("*.py") if "__pycache__" not in p.parts)
    for d in RESOURCE_DIRS:
        files += sorted(p for p in (root / d).rglob("*") if p.is_file())
    if prefix:  # 'cityplanner/__init__.py': the package above 'plugin' must exist on the worker
        files.append(root / "__init__.py")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p in files:
            info = zipfile.ZipInfo(prefix + p.relative_to(root).as_posix(), date_time=(2020, 1, 1, 0, 0, 0))
            z.writestr(info, p.read_bytes(), zipfile.ZIP_DEFLATED)   # fixed dates: same code, same digest
    data = buf.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]


def shipment_plugin(data: bytes, digest: str) -> Any:
    """The Dask worker plugin that unpacks the shipment on each worker (the class is made here so
    that this module imports without ``distributed``: the local path needs only ``unpack``)."""
    from distributed import WorkerPlugin

    class CodeShipment(WorkerPlugin):
        """Unpack the shipped code on each worker (once per digest) and import from it."""

        def __init__(self, data: bytes, digest: str):
            self.data = data
            self.digest = digest
            self.name = f"cityplanner-code-{digest}"

        def setup(self, worker: Any) -> None:
            folder = unpack(self.data, self.digest, Path(worker.local_directory))
            if str(folder) not in sys.path:
                sys.path.insert(0, str(folder))
            import importlib

            importlib.invalidate_caches()

    return CodeShipment(data, digest)


def unpack(data: bytes, digest: str, parent: Path) -> Path:
    """The shipment unpacked in ``parent``/cityplanner-code-DIGEST (once; reused after)."""
    parent.mkdir(parents=True, exist_ok=True)
    folder = parent / f"cityplanner-code-{digest}"
    if not folder.is_dir():
        tmp = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            z.extractall(tmp)
        try:
            tmp.replace(folder)   # atomic: a half-written folder is never imported from
        except OSError:           # another process won the race: its copy is the same code
            shutil.rmtree(tmp, ignore_errors=True)
    return folder


def trampoline() -> Any:
    """A task function ``call(module, function, *args)`` = ``module.function(*args)`` on the
    worker. The scheduler unpickles every task and has neither the plugin nor the shipment, so
    tasks go through this function with plain-data arguments; it is made inside a function
    because Dask pickles a task by reference whenever plain pickle can, and a local function
    is one that plain pickle cannot (so it travels by value, as cloudpickle code)."""

    def call(module: str, function: str, *args: Any) -> Any:
        import importlib

        return getattr(importlib.import_module(module), function)(*args)

    return call


def retried(dask_scheduler: Any, keys: list[str]) -> dict[str, int]:
    """On the scheduler: how many times each task's worker died under it (its retries)."""
    out = {}
    for k in keys:
        ts = dask_scheduler.tasks.get(k)
        out[k] = int(getattr(ts, "suspicious", 0) or 0) if ts is not None else 0
    return out


def ship(client: Any) -> str:
    """Register the code shipment with ``client``'s cluster; returns its digest."""
    import cloudpickle

    data, digest = shipment()
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    client.register_plugin(shipment_plugin(data, digest), name=f"cityplanner-code-{digest}")
    return digest
