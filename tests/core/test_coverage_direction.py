"""Coverage read in the right direction (issue 29): "every residential block within D of a Y" and
"no home more than D from a Y" both mean every block within D of a Y; "all stations … from homes"
names the sites, not the homes, and is asked about rather than read as a coverage or a count."""
from __future__ import annotations

import pytest

from cityplanner.plugin.constraints.rules import Ambiguous, parse


def _read(text: str) -> list[tuple]:
    return [(c["kind"], c.get("distance_m"), (c.get("target") or {}).get("category"), c.get("scope"))
            for c in parse(text, "station", 1000.0)]


@pytest.mark.parametrize("text, metres, category", [
    ("every residential block within 500 m of a school", 500.0, "school"),
    ("each block must be within 800 m of a school", 800.0, "school"),
    ("no residential block more than 500 m from a station", 500.0, "charging"),
    ("no home should be farther than 600 m from a charger", 600.0, "charging"),
    ("not a single household further than 1 km from a school", 1000.0, "school"),
])
def test_coverage_either_way_round(text, metres, category):
    assert _read(text) == [("coverage", metres, category, "residential blocks")]


def test_sites_kept_from_homes_is_asked_not_read_as_coverage():
    with pytest.raises(Ambiguous, match="name the place"):
        parse("keep all stations at least 200 m from homes", "station", 1000.0)
