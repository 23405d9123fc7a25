import os
import sys

# Debian's pyproj in a virtual environment looks for PROJ's data under the venv and warns
# "Valid PROJ data directory not found" on every run (transforms still work): every CLI
# message must be one line, so point it at the system copy when nothing else is set.
if not (os.environ.get("PROJ_DATA") or os.environ.get("PROJ_LIB")) and os.path.isdir("/usr/share/proj"):
    os.environ["PROJ_DATA"] = "/usr/share/proj"

from .cli import main  # noqa: E402  (after the environment above)


def _run() -> int:
    try:
        code = main()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # `python -m plugin … | head`: the reader left. Python's advice: point stdout at devnull
        # so the exit's own flush cannot raise again, then stop quietly (exit 2: output was cut)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print("error: output pipe closed by the reader", file=sys.stderr)
        return 2


sys.exit(_run())
