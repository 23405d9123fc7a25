"""The documentation a newcomer follows: the README stays a user's page, and every link in the
docs and every reference in the code points to a file (and heading) the repository has."""
import configparser
import re
from pathlib import Path

import pytest

from cityplanner.plugin import PLUGIN_ROOT

#: docs other issues are writing at the same time (compatibility table, budget curves): linked
#: from the README before they land; checked like any other link once they exist
PENDING: set[str] = set()
CODE_DIRS = ("plugin", "processing_algorithms", "scripts", "tests")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE_REF = re.compile(r"\bdocs/([\w/.-]+\.md)#([\w-]+)")


def _markdown_files() -> list[Path]:
    return [PLUGIN_ROOT / "README.md", PLUGIN_ROOT / "CHANGELOG.md", *sorted((PLUGIN_ROOT / "docs").rglob("*.md"))]


def slugs(markdown: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to
    hyphens, a repeated heading numbered -1, -2 … (headings inside code fences do not count)."""
    out: set[str] = set()
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            slug, n = base, 0
            while slug in out:
                n += 1
                slug = f"{base}-{n}"
            out.add(slug)
    return out


def test_slugs_follow_githubs_rule():
    page = "# A page\n## Asking in a planner's own words\n```\n# not a heading\n```\n## Layers\n## Layers\n"
    assert slugs(page) == {"a-page", "asking-in-a-planners-own-words", "layers", "layers-1"}


def _target_ok(source: Path, target: str) -> str | None:
    """None when ``target`` (relative to ``source``, maybe with #anchor) exists, else why not."""
    path, _, anchor = target.partition("#")
    file = (source.parent / path).resolve() if path else source
    rel = file.relative_to(PLUGIN_ROOT).as_posix() if file.is_relative_to(PLUGIN_ROOT) else str(file)
    if rel in PENDING and not file.exists():
        return None
    if not file.exists():
        return f"{target}: no such file"
    if anchor and file.suffix == ".md" and anchor not in slugs(file.read_text(encoding="utf-8")):
        return f"{target}: no heading #{anchor}"
    return None


def test_every_link_in_the_docs_resolves():
    broken = []
    for md in _markdown_files():
        assert md.is_file(), md
        for target in LINK.findall(md.read_text(encoding="utf-8")):
            if not re.match(r"^[a-z]+:", target):
                why = _target_ok(md, target)
                if why:
                    broken.append(f"{md.relative_to(PLUGIN_ROOT)}: {why}")
    assert not broken


def test_code_cites_only_documents_the_repository_has():
    broken = []
    files = [p for d in CODE_DIRS for p in (PLUGIN_ROOT / d).rglob("*") if p.suffix in (".py", ".md", ".tmpl", ".sh")]
    files += sorted(PLUGIN_ROOT.glob("requirements*.txt")) + _markdown_files()
    for f in files:
        text = f.read_text(encoding="utf-8")
        where = f.relative_to(PLUGIN_ROOT)
        if f.resolve() != Path(__file__).resolve() and re.search(r"\b(REFERENCE|DESIGN)\.md\b", text):
            broken.append(f"{where}: cites a document outside the repository")
        for doc, anchor in CODE_REF.findall(text):
            why = _target_ok(PLUGIN_ROOT / "README.md", f"docs/{doc}#{anchor}")
            if why:
                broken.append(f"{where}: {why}")
    assert not broken


@pytest.mark.parametrize("needle", ["make demo", "make test", "docs/dev.md", "## Install in QGIS",
                                    "## A first run", "## What to read next"])
def test_readme_is_a_users_page_that_still_names_the_developer_commands(needle):
    readme = (PLUGIN_ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 12 * 1024
    assert needle in readme
    picture = re.search(r"!\[[^\]]+\]\((docs/[^)]+\.png)\)", readme)
    assert picture and (PLUGIN_ROOT / picture.group(1)).is_file()


def test_the_version_has_its_changelog_entry():
    """A release bumps metadata.txt's version with a line in its changelog= and a CHANGELOG.md section."""
    meta = configparser.ConfigParser()
    meta.read(PLUGIN_ROOT / "metadata.txt", encoding="utf-8")
    version = meta["general"]["version"]
    assert meta["general"]["changelog"].startswith(f"{version} ")
    changelog = (PLUGIN_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(version)}\s*$", changelog, re.M)
