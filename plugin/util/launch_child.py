"""Bootstrap of every Python worker the plugin starts (``plugin.util.spawned.start_worker``).

Started as ``python launch_child.py SCRIPT ARG...`` with the parent's ``sys.path`` in the
environment variable named by ``PATH_VARIABLE`` (JSON). Inside QGIS that path holds what the
plugin put there at run time (the profile's ``python/dependencies``, QGIS's plugin folders),
which a fresh interpreter would not see: QGIS does not export it as PYTHONPATH. The variable is
removed before SCRIPT runs, so a process SCRIPT starts in turn (pip, a shell) is not affected.

SCRIPT runs as ``__main__`` with ``sys.argv = [SCRIPT, ARG...]`` and exactly the parent's path:
neither this folder nor SCRIPT's folder is put in front, so plugin modules named like others
(``util``, ``agent``) cannot shadow them. Imports nothing from the plugin.
"""
import json
import os
import runpy
import sys

PATH_VARIABLE = "CITYPLANNER_WORKER_SYS_PATH"


def main() -> None:
    path = os.environ.pop(PATH_VARIABLE, None)
    if path is not None:
        sys.path[:] = json.loads(path)
    else:   # started by hand: at least do not let this folder shadow anything
        del sys.path[0]
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
