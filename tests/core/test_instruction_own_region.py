"""A planner's own city said first in an instruction (issue 29, round 13): "In Tampere, …" on an instance built
from own layers named tampere is the instance's region, never a place — the region's names are derived from the
loaded regions (its key, its Finnish case forms), not from a list of bundled cities. The layers are own_city's
grid with street names of our own; the streets' lines are read here from the GeoPackage, not from the code under
test."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import pytest
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import own_city  # noqa: E402

from cityplanner.plugin.city.region_names import region_of_word  # noqa: E402
from cityplanner.plugin.constraints.rules import _drop_region_plan, region_of_plan  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
STREETS = ["Puistokatu", "Rantatie", "Koulukatu", "Tehtaanpuistotie", "Kirkkokatu", "Asematie", "Myllykatu",
           "Satamatie", "Torikatu", "Metsätie", "Kauppakatu"]


@pytest.mark.parametrize("word, region", [
    ("Tampere", "tampere"), ("Tampereella", "tampere"), ("Tampereen", "tampere"), ("Kotkassa", "kotka"),
    ("Helsingissä", "helsinki"), ("Helsingfors", "helsinki"), ("Lahdessa", "lahti"), ("Karhula", None),
    ("Kluuvi", None), ("Tamper", None),
])
def test_a_region_word_is_a_loaded_region_in_any_case(word, region):
    assert region_of_word(word, ("helsinki", "kotka", "tampere", "lahti"), lead=True) == region


@pytest.mark.parametrize("text, region", [
    ("In Tampere, no business within 250 m of Koulukatu", "tampere"),
    ("Tampereella: at most two chargers", "tampere"),
    ("For the city of Tampere — keep 300 m between stations", "tampere"),
    ("In Kotka, no chargers within 200 m of Kumparepuisto.", "kotka"),
    ("In Tampella, no offices", None),   # a place of the city said first stays a place
    # a region's plan: its genitive before a task word, also after a capitalised word ("Tee …")
    ("Tampereen tiesuunnitelmassa enintään kolme uutta linkkiä", "tampere"),
    ("Tee Tampereen latausasemasuunnitelmaan kaksi asemaa", "tampere"),
    ("In Tampere's road plan: no new links near Koulukatu", "tampere"),
    ("Kotkan tiesuunnitelmassa enintään 3 uutta linkkiä", "kotka"),
    ("Karhulan maankäyttösuunnitelmassa ei kouluja", "kotka"),
    ("Helsingin latausasemasuunnitelmaan vähintään 2 asemaa", "helsinki"),
    ("Tampereen koulu: no chargers within 200 m", None),   # a place's name in the genitive, no task word
])
def test_a_region_said_first_is_derived_from_the_loaded_regions(text, region):
    assert region_of_plan(text, ("tampere",)) == region
    if region == "tampere":   # not loaded: no region, so its name is read where names are
        assert region_of_plan(text) is None
    if region:   # the region's words are no place: what is left is the instruction itself
        rest = _drop_region_plan(text, ("tampere",))
        assert not re.search(r"Tampere|Kotka|Karhula|Helsin", rest) and rest, rest


def _cli(*args: str) -> dict:
    p = subprocess.run([sys.executable, "-m", "plugin", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def tampere(tmp_path_factory) -> tuple[Path, Path]:
    """A station workspace on own layers from a GeoPackage named tampere (the region's key), and the file."""
    root = tmp_path_factory.mktemp("tampere")
    f = own_city.frames()
    path = root / "tampere.gpkg"
    f["katu"].assign(name=STREETS[: len(f["katu"])]).to_file(path, layer="katu", driver="GPKG", engine="pyogrio")
    f["asukkaat"].to_file(path, layer="asukkaat", driver="GPKG", engine="pyogrio")
    ws = root / "ws"
    _cli("instance", "--task", "station", "--roads", f"{path}:katu", "--demand", f"{path}:asukkaat",
         "--demand-field", "asukasluku", "--out", str(ws))
    return ws, path


@pytest.mark.slow   # a workspace built from own layers, instructions read through the CLI
@pytest.mark.parametrize("text", [
    "In Tampere, no station within 100 m of Koulukatu",
    "Tampereella: no station within 100 m of Koulukatu",
])
def test_an_own_city_said_first_is_the_region_never_a_place(tampere, text):
    ws, path = tampere
    out = _cli("instruct", str(ws), text, "--rules-only")
    assert out.get("clarification") is None, out.get("clarification")
    (c,) = out["constraints"]
    assert (c["kind"], c["target"]["name"], c["distance_m"]) == ("exclude_near", "Koulukatu", 100.0)
    assert "from the line of Koulukatu" in c["note"]
    # the place is the street's own line in the file (never the city "Tampere")
    streets = gpd.read_file(path, layer="katu")
    line = shapely.union_all(streets[streets["name"] == "Koulukatu"].to_crs(own_city.UTM).geometry.to_numpy())
    said = re.search(r"(\d+) m of mapped lines", c["note"])
    assert said and abs(int(said.group(1)) - line.length) <= 1.0
