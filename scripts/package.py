"""Build dist/cityplanner-<version>.zip: the plugin folder as QGIS expects it (top folder
``cityplanner``), from the files git tracks, without tests, CI, dev scripts or docs."""
import configparser
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXCLUDE_DIRS = ("tests/", ".ci/", "scripts/", "docs/")
EXCLUDE_FILES = {"Makefile", "requirements.txt", "requirements-nodeps.txt", "constraints.txt",
                 "pytest.ini", ".gitignore", "pb_tool.cfg"}


def main() -> int:
    meta = configparser.ConfigParser()
    meta.read(ROOT / "metadata.txt")
    out = ROOT / "dist" / f"cityplanner-{meta['general']['version']}.zip"
    out.parent.mkdir(exist_ok=True)
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    files = [f for f in files if not f.startswith(EXCLUDE_DIRS) and f not in EXCLUDE_FILES]
    tmp = out.with_suffix(".zip.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(ROOT / f, f"cityplanner/{f}")
    tmp.replace(out)
    print(f"{out.relative_to(ROOT)}: {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
