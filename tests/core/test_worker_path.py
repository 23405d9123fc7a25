"""Every Python worker starts the way QGIS needs it: QGIS's interpreter and the plugin's
``sys.path``. QGIS puts the profile's ``python/dependencies`` on ``sys.path`` at run time and
never in PYTHONPATH, so each test here runs a parent in the system Python with a clean
environment (``-E -s``, no PYTHONPATH, no venv) that adds a dependency folder to ``sys.path``
by hand, exactly as the plugin does inside QGIS, and starts workers from there."""
from __future__ import annotations

import json
import os
import subprocess
import sysconfig
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = "/usr/bin/python3"   # QGIS's Python on Debian
needs_system_python = pytest.mark.skipif(not Path(SYSTEM_PYTHON).is_file(), reason="no system Python")


def run_as_qgis(code: str, deps: Path, timeout: int = 300) -> dict:
    """``code`` in the system Python with ``deps`` on sys.path only; its last stdout line as JSON."""
    prelude = f"import sys; sys.path.insert(0, {str(deps)!r}); sys.path.insert(0, {str(ROOT)!r})\n"
    env = {k: v for k, v in os.environ.items() if k in ("HOME", "LANG", "TMPDIR")}
    env["PATH"] = "/usr/bin:/bin"
    r = subprocess.run([SYSTEM_PYTHON, "-E", "-s", "-c", prelude + textwrap.dedent(code)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture
def deps(tmp_path) -> Path:
    """A dependency folder holding one module no interpreter can import on its own."""
    folder = tmp_path / "python" / "dependencies"
    folder.mkdir(parents=True)
    (folder / "cp_probe_dep.py").write_text("import os\nMARK = 'from the profile'\n"
                                            "def where():\n    return os.getpid(), MARK\n")
    return folder


@needs_system_python
def test_start_worker_gives_a_script_the_parents_import_path(deps, tmp_path):
    script = tmp_path / "probe_script.py"
    script.write_text(textwrap.dedent("""
        import json, os, sys
        import cp_probe_dep
        print(json.dumps({"mark": cp_probe_dep.MARK, "argv": sys.argv[1:], "exe": sys.executable,
                          "env": [k for k in os.environ if k.startswith("CITYPLANNER")],
                          "first": sys.path[0]}))
    """))
    out = run_as_qgis(f"""
        import json, os
        from plugin.util.spawned import start_worker
        assert "PYTHONPATH" not in os.environ
        p = start_worker({str(script)!r}, "a b", "2", text=True)
        p.stdin.close()
        child = json.loads(p.stdout.read())
        p.wait()
        print(json.dumps({{"child": child, "code": p.returncode, "path0": sys.path[0]}}))
    """, deps)
    child = out["child"]
    assert out["code"] == 0 and child["mark"] == "from the profile" and child["argv"] == ["a b", "2"]
    assert Path(child["exe"]).name.startswith("python3")
    assert child["env"] == []                      # the hand-over variable is gone before the script runs
    assert child["first"] == out["path0"]          # exactly the parent's path: no launcher folder in front


@needs_system_python
def test_a_bounded_call_runs_a_function_from_the_dependency_folder(deps):
    out = run_as_qgis("""
        import json, os
        from plugin.util.spawned import bounded_call
        import cp_probe_dep
        state, (pid, mark) = bounded_call(cp_probe_dep.where, (), 60)
        print(json.dumps({"state": state, "mark": mark, "other": pid != os.getpid()}))
    """, deps)
    assert out == {"state": "ok", "mark": "from the profile", "other": True}


@needs_system_python
@pytest.mark.model
def test_the_bundled_model_answers_with_llama_cpp_on_sys_path_only():
    """The venv's site-packages plays the profile's python/dependencies: the system Python cannot
    import llama_cpp by itself, the plugin's parent process can (sys.path), and so must the worker."""
    site = Path(sysconfig.get_paths()["purelib"])
    if not (site / "llama_cpp").is_dir():
        pytest.skip("llama-cpp-python is not installed in this environment")
    alone = subprocess.run([SYSTEM_PYTHON, "-E", "-s", "-c", "import llama_cpp"], capture_output=True, text=True,
                           env={"PATH": "/usr/bin:/bin"})
    assert alone.returncode != 0 and "llama_cpp" in alone.stderr   # the folder is the only way in
    out = run_as_qgis("""
        import json
        from plugin.agent.backend import make_backend
        b = make_backend("default", threads=1, n_ctx=512, seed=0)
        try:
            r = b.chat([{"role": "user", "content": "Name one colour."}], max_tokens=8, temperature=0.0)
        finally:
            b.close()
        print(json.dumps({"text": r.text, "tokens": r.completion_tokens}))
    """, site, timeout=600)
    assert out["text"].strip() and 1 <= out["tokens"] <= 8
