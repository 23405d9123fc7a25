import os
import sys

# Debian's pyproj in a virtual environment looks for PROJ's data under the venv and warns
# "Valid PROJ data directory not found" on every run (transforms still work): every CLI
# message must be one line, so point it at the system copy when nothing else is set.
if not (os.environ.get("PROJ_DATA") or os.environ.get("PROJ_LIB")) and os.path.isdir("/usr/share/proj"):
    os.environ["PROJ_DATA"] = "/usr/share/proj"

from .cli import main  # noqa: E402  (after the environment above)

sys.exit(main())
