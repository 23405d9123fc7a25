"""The spawned HiGHS worker: dies with its parent, and solves to the certified optimum inside
a multi-threaded host (the MCP server over stdio, where the old forked child deadlocked)."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

ROOT = Path(__file__).resolve().parents[2]

PARENT = """
import time
from plugin.util.spawned import SpawnedWorker
w = SpawnedWorker()
print(w.wait_ready()[0], w.pid, flush=True)
w.call(time.sleep, (120,), 200)
"""

pytestmark = pytest.mark.slow  # real worker processes killed, cancelled and served over MCP


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper is dead)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_worker_dies_when_its_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    state, pid = parent.stdout.readline().split()
    assert state == "ready" and _alive(int(pid))
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    end = time.monotonic() + 5
    while _alive(int(pid)) and time.monotonic() < end:
        time.sleep(0.05)
    assert not _alive(int(pid))


def test_cancel_kills_a_running_call_at_once():
    from cityplanner.plugin.util.spawned import bounded_call

    t0 = time.perf_counter()
    assert bounded_call(time.sleep, (30,), 60, cancel=lambda: time.perf_counter() - t0 > 0.5) == ("cancelled", None)
    assert time.perf_counter() - t0 < 5


def test_mcp_milp_solve_reaches_the_certified_optimum(tmp_path):
    """The same station instance, solved by the exact MILP through the MCP server and in this
    process, gives the same plan score, and the server's run proves it optimal (gap 0)."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from cityplanner.plugin.sandbox.workspace import load_instance
    from cityplanner.plugin.solvers.milp import solve_milp

    async def main():
        params = StdioServerParameters(command=sys.executable, cwd=str(ROOT),
                                       args=["-m", "plugin", "mcp", "--root", str(tmp_path)])
        async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            built = await s.call_tool("build_instance", {"region": "kotka", "task": "station", "budget": 200,
                                                         "workspace": "w"})
            assert not built.isError, built.content[0].text
            res = await s.call_tool("solve_plan", {"workspace": "w", "method": "milp", "time_limit": 30})
            assert not res.isError, res.content[0].text
            return res.structuredContent

    out = anyio.run(main)
    ref = solve_milp(load_instance(tmp_path / "w"), 30)
    assert ref.status == "optimal" and ref.exact
    assert out["status"] == "optimal" and out["valid"]
    assert out["gap"] == pytest.approx(0.0, abs=1e-5)
    inst = load_instance(tmp_path / "w")
    assert out["score"] == pytest.approx(inst.score_mask(ref.mask)[0], abs=1e-6)


def _in_daemon(queue):
    from cityplanner.plugin.solvers.milp import bounded_call

    queue.put(bounded_call(divmod, (7, 2), 30.0))


def test_a_daemonic_process_gets_a_bounded_call():
    """Dask workers are daemonic: multiprocessing may not start children there, a spawned worker may."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_in_daemon, args=(queue,), daemon=True)
    proc.start()
    try:
        assert queue.get(timeout=60) == ("ok", (3, 1))
    finally:
        proc.join(10)
