"""kill -9 of a `solve` (CLI) or of the MCP server while the MILP runs leaves no solver worker behind
(issue 17: the forked HiGHS child used to live on forever, ppid 1, blocked writing to a pipe)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETTLED_S = 1.0  # a descendant alive this long is the solver worker, not a short-lived helper

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
              pytest.mark.timeout(300), pytest.mark.slow]  # real processes killed mid-solve


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state) of a process; None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None
    return int(fields[1]), fields[0]


def _alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[1] != "Z"  # a zombie waiting for its reaper is dead


def _descendants(parent: int) -> set[int]:
    """Processes below ``parent`` (any kind of worker: a spawned interpreter or a forked child)."""
    out = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == parent:
            continue
        pid = int(entry)
        st = _stat(pid)
        while st is not None and st[0] > 1 and st[0] != parent:  # walk up to init or to ``parent``
            st = _stat(st[0])
        if st is not None and st[0] == parent:
            out.add(pid)
    return out


def _kill_mid_milp(proc: subprocess.Popen) -> list[int]:
    """Wait until ``proc`` runs a solver worker, kill -9 ``proc``; the workers it had."""
    end = time.monotonic() + 120
    seen: set[int] = set()
    workers: list[int] = []
    while not workers and proc.poll() is None and time.monotonic() < end:
        time.sleep(SETTLED_S)
        now = _descendants(proc.pid)
        workers, seen = sorted(now & seen), now
    assert workers, "no worker ran for a second (or the solve ended before one was seen)"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    end = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < end:
        time.sleep(0.05)
    return workers


@pytest.fixture(scope="module")
def road_root(tmp_path_factory):
    """A folder holding workspace ``w``: a large road instance whose MILP runs for seconds."""
    from cityplanner.plugin.city import load_city
    from cityplanner.plugin.sandbox import write_workspace
    from cityplanner.plugin.tasks import task_class

    root = tmp_path_factory.mktemp("orphans")
    write_workspace(task_class("road").build(load_city("helsinki"), size="large", seed=0), root / "w")
    return root


def test_killing_the_solve_command_leaves_no_worker(road_root):
    proc = subprocess.Popen([sys.executable, "-m", "plugin", "solve", str(road_root / "w"), "--method", "milp",
                             "--time-limit", "120"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = _kill_mid_milp(proc)
    assert not [w for w in workers if _alive(w)]


def test_killing_the_mcp_server_leaves_no_worker(road_root):
    proc = subprocess.Popen([sys.executable, "-m", "plugin", "mcp", "--root", str(road_root)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "solve_plan", "arguments": {"workspace": "w", "method": "milp", "time_limit": 120}}},
    ]
    proc.stdin.write(json.dumps(messages[0]) + "\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1  # the server answered initialize
    for m in messages[1:]:
        proc.stdin.write(json.dumps(m) + "\n")
    proc.stdin.flush()
    workers = _kill_mid_milp(proc)
    assert not [w for w in workers if _alive(w)]
