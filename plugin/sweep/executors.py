"""Where the points of a sweep run: Dask (a local cluster or any scheduler address) or plain
local processes.

Both yield ``(point, result)`` pairs as points finish (results stream back; a point that
failed yields a result with ``error``), stop handing out work when ``cancel()`` turns true
and keep what already finished.

* ``dask_points``: ``dask.distributed``. No address: a ``LocalCluster`` of ``workers``
  single-threaded processes. With an address: whatever cluster runs there; its workers need
  the Python packages only — the plugin's code travels with the sweep (``ship.py``). A worker
  that dies under a point costs that point a retry on another worker (the scheduler's own
  rescheduling); the retries are counted from the scheduler's record (``suspicious``).
* ``local_points``: no Dask at all: each point in a freshly spawned interpreter
  (``plugin.util.spawned``), ``workers`` at a time, killed at its time limit plus a grace.
  This is the QGIS path: it needs nothing beyond the runtime requirements, and spawning (not
  forking) is safe inside QGIS, whose ``sys.executable`` is not Python. A child that dies is
  retried once.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

from ..errors import InputError
from .points import Point, run_point

#: seconds a point may run past its time limit before it counts as hung: the default method
#: ends on time by itself; start-up of a spawned interpreter is not counted (spawned.py)
GRACE_S = 30.0
#: a local child that dies is started again this many times
LOCAL_RETRIES = 1
POLL_S = 0.2
CONNECT_TIMEOUT = "15s"   # a scheduler address that answers nothing is an input error, soon

Pair = tuple[Point, dict[str, Any]]


def default_workers() -> int:
    """Half the CPUs (at least 1): each point's MILP runs HiGHS in one more process."""
    return max(1, (os.cpu_count() or 2) // 2)


def _error(point: Point, message: str, retries: int = 0) -> dict[str, Any]:
    return {"error": message.splitlines()[0][:300] if message else "failed", "retries": retries,
            "scenario": point.scenario, "budget": point.budget}


def dask_points(export: dict[str, Any], points: list[Point], scheduler: str | None = None,
                workers: int | None = None, cancel: Callable[[], bool] | None = None) -> Iterator[Pair]:
    """Run ``points`` on a Dask cluster; yields (point, result) as each finishes."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError("Dask's 'distributed' package is not installed here: install it "
                         "(requirements-dev.txt) or run the points as local processes (--backend local)") from None

    from dataclasses import asdict

    from . import points as points_module
    from .ship import retried, ship, trampoline

    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as e:
            raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {str(e).splitlines()[0][:120]}") from None
    else:   # processes, one thread each: the solvers hold the GIL
        cluster = LocalCluster(n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                               dashboard_address=None, host="127.0.0.1")
        client = Client(cluster)
    try:
        ship(client)
        [data] = client.scatter([export], broadcast=True)   # every worker holds it: one lost worker loses no data
        call = trampoline()
        futures = {client.submit(call, points_module.__name__, "run_point_data", data, asdict(p), pure=False,
                                 key=f"cityplanner-sweep-{p.key()}-{os.urandom(4).hex()}"): p for p in points}
        pending = dict(futures)
        while pending:   # polled, not blocked on: a cancel is seen within POLL_S
            done = [f for f in pending if f.done()]
            if not done:
                if cancel is not None and cancel():
                    for f in pending:
                        f.cancel()
                    return
                time.sleep(POLL_S)
                continue
            for fut in done:
                p = pending.pop(fut)
                retries = client.run_on_scheduler(retried, keys=[fut.key]).get(fut.key, 0)
                if fut.status == "finished":
                    yield p, {**fut.result(), "retries": retries}
                elif fut.status != "cancelled":
                    yield p, _error(p, f"{type(fut.exception()).__name__}: {fut.exception()}", retries)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def local_points(export: dict[str, Any], points: list[Point], workers: int | None = None,
                 cancel: Callable[[], bool] | None = None) -> Iterator[Pair]:
    """Run ``points`` in spawned local interpreters, ``workers`` at a time (no Dask)."""
    import getpass
    import tempfile
    from pathlib import Path

    from ..util.spawned import bounded_call
    from .ship import shipment, unpack

    stop = cancel or (lambda: False)
    # the children import the plugin from an unpacked copy of its code: this process may have
    # loaded it from a place that is not on sys.path (QGIS's plugin loader, the tests)
    code = (str(unpack(*shipment(), Path(tempfile.gettempdir()) / f"cityplanner-{getpass.getuser()}")),)

    def one(p: Point) -> dict[str, Any]:
        for attempt in range(LOCAL_RETRIES + 1):
            state, value = bounded_call(run_point, (export, p), p.time_limit + GRACE_S, cancel=stop,
                                        path_first=code)
            if state == "ok":
                return {**value, "retries": attempt}
            if state == "cancelled":
                return {"cancelled": True}
            if state == "killed":
                return _error(p, f"no answer within {p.time_limit + GRACE_S:g} s", attempt)
            if attempt == LOCAL_RETRIES or "died" not in str(value):
                return _error(p, str(value), attempt)
        raise AssertionError("unreachable")

    with ThreadPoolExecutor(max_workers=workers or default_workers()) as pool:
        running: dict[Future, Point] = {pool.submit(one, p): p for p in points}
        while running:
            done, _ = wait(running, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for f in done:
                p = running.pop(f)
                res = f.result()
                if not res.get("cancelled"):
                    yield p, res
            if stop():
                for f in running:
                    f.cancel()   # not started yet: never starts; started: its child is killed by ``stop``
                for f in running:
                    if not f.cancelled():
                        f.result()
                return
