"""Round 12a's classes of the ask reader, each in general form (issue 29), with requests written here:

* a data name joined by a hyphen to its own kind noun in a Finnish case ("Kalat-patsaalta") is that
  place when the noun agrees with it, a route pair in two Finnish cases splits into its ends, and a span
  with a data name in it is never said to lie outside the loaded regions;
* a loaded region said as an area ("the Tampere area", "Tampereen seudulla") is the region — derived
  from the loaded regions, so a planner's own city (not bundled) works as the bundled ones;
* facility words the audit found missing, each counted in both regions through the real tools and
  checked against a count read from the OSM extract itself with pyogrio (not through the city model)."""
from __future__ import annotations

import sys
from pathlib import Path

import pyogrio
import pytest

from cityplanner.plugin.agent.ask import ask
from cityplanner.plugin.agent.ask.cognition import extract
from cityplanner.plugin.city.names import name_index
from cityplanner.plugin.city.region_names import region_as_area, region_of_word

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import own_city  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REGIONS = ("helsinki", "kotka")


def _read(request, region, index_of=name_index, regions=REGIONS):
    return extract(request, index_of, regions, region)


def _name(region, fid):
    return next(f.name for f in name_index(region).features if f.id == fid)


# ----------------------------------------------------------------------------- a name and its own kind noun
@pytest.mark.parametrize("region, request_, name", [
    ("helsinki", "montako kahvilaa on Kalat-aukiolla?", "Kalat"),
    ("helsinki", "cafés in Kalat-aukio", "Kalat"),
    ("kotka", "montako koulua on Kumparepuisto-aukiolla?", "Kumparepuisto"),
])
def test_a_span_with_a_data_name_in_it_is_never_outside_the_loaded_regions(region, request_, name):
    task = _read(request_, region)
    assert any(f"did you mean {name}?" in a for a in task.absent), task.absent
    for asked in (region, None):   # without a region: never outside either (the region may be asked)
        assert all("outside the loaded regions" not in a for a in _read(request_, asked).absent)


def test_a_kind_noun_that_names_another_kind_names_the_data_name_and_its_tags():
    # Kalat is an artwork in the data (tourism=artwork), no museum: the reply asks, naming what it is
    kalat = next(f for f in name_index("helsinki").features if f.name == "Kalat")
    assert ("tourism", "artwork") in kalat.tags
    task = _read("kumpi on lähempänä Kalat-museota, Samrat vai Grotesk Restaurant & Bar?", "helsinki")
    assert task.absent == ["'Kalat-museota' is not in the helsinki data — Kalat there is tourism=artwork, not the "
                           "kind 'museota' names; did you mean Kalat?"]


@pytest.mark.parametrize("region, request_, ends", [
    ("helsinki", "Kuinka pitkä matka on tietä pitkin Havis Amanda -patsaalta Pub Peräkammariin?",
     ("Havis Amanda", "Pub Peräkammari")),
    ("helsinki", "Kalat-patsaalta Kiasma-museoon, paljonko matkaa?", ("Kalat", "Kiasma")),
    ("kotka", "Kumparepuisto-puistosta Otsonkallio-päiväkotiin kuinka pitkä matka?", ("Kumparepuisto", "Otsonkallio")),
])
def test_a_route_pair_of_names_with_their_kind_nouns_splits_into_its_ends(region, request_, ends):
    task = _read(request_, region)
    assert [g.intent for g in task.goals] == ["route"] and not task.absent
    g = task.goals[0]
    assert (_name(region, g.slots["origin"]), _name(region, g.slots["destination"])) == ends


# ----------------------------------------------------------------------------- a region said as an area
def test_region_names_and_their_finnish_forms_are_derived_from_the_loaded_regions():
    loaded = ("helsinki", "kotka", "tampere", "lahti")   # two of them bundled, two a planner's own
    for text, region in (("the Tampere area", "tampere"), ("Tampereen seudulla", "tampere"),
                         ("koko Tampereen alueelle", "tampere"), ("greater Lahti", "lahti"),
                         ("Lahden kaupungissa", "lahti"), ("the city of Kotka", "kotka"),
                         ("Helsingin alueella", "helsinki"), ("in the Helsinki region", "helsinki"),
                         ("Suur-Helsinki", "helsinki")):
        assert region_as_area(text, loaded) == region, text
    for text in ("Kallion alueella", "the Espoo area", "Tampere", "Tampereen koulu"):   # a district, no area word
        assert region_as_area(text, loaded) is None, text
    for word, region in (("Tampereella", "tampere"), ("Lahdessa", "lahti"), ("Kotkan", "kotka"), ("Espoossa", None)):
        assert region_of_word(word, loaded) == region, word


def test_a_region_said_by_its_centre_is_the_region_only_with_the_centre_words():
    loaded = ("helsinki", "kotka", "tampere")
    for text, region in (("the Helsinki city centre", "helsinki"), ("Kotka town centre", "kotka"),
                         ("Tampere City Center", "tampere"), ("Tampereen keskustaan", "tampere"),
                         ("downtown Helsinki", "helsinki")):
        assert region_as_area(text, loaded, centre=True) == region, text
        assert region_as_area(text, loaded) is None, text   # a centre is no area word: a count there keeps the name
    for text in ("Kallio centre", "Helsinki", "the Espoo city centre"):
        assert region_as_area(text, loaded, centre=True) is None, text


@pytest.fixture(scope="module")
def own_region(tmp_path_factory):
    """own_city's street grid as a planner's own region named after its file ("tampere"), as the ask
    command registers own layers: one more region next to the bundled ones."""
    from cityplanner.plugin.city.inputs import CityInputs, city_from_inputs, source_gpkg

    folder = tmp_path_factory.mktemp("own-region")
    path = folder / "tampere.gpkg"
    streets = own_city.frames()["katu"]
    streets.assign(name=[f"Katu {i}" for i in range(len(streets))]).assign(
        name=lambda d: d["name"].where(d.index != 2, "Koulukatu")).to_file(path, layer="katu", driver="GPKG",
                                                                            engine="pyogrio")
    city = city_from_inputs(CityInputs(roads=f"{path}:katu"))
    assert city.name == "tampere"
    return city.name, source_gpkg(city, folder / "tampere-source.gpkg")


@pytest.mark.parametrize("request_, task_, budget", [
    ("Please prepare a land-use plan for the Tampere area with a budget of 900 000 euros", "land", 900.0),
    ("latausasemasuunnitelma Tampereen alueelle, budjetti 300 000 €", "station", 300.0),
    ("road plan for greater Tampere, 2 M€", "road", 2000.0),
])
def test_a_plan_for_an_own_region_said_as_an_area(own_region, request_, task_, budget):
    name, source = own_region
    task = _read(request_, None, lambda r: name_index(r, source) if r == name else name_index(r), (*REGIONS, name))
    assert task.region == name and not task.absent
    assert [(g.intent, g.slots["task"], g.slots["budget"]) for g in task.goals] == [("plan", task_, budget)]


def test_a_street_then_the_own_region_it_is_in(own_region):
    name, source = own_region
    task = _read("Kuinka pitkä on Koulukatu Tampereella?", None,
                 lambda r: name_index(r, source) if r == name else name_index(r), (*REGIONS, name))
    assert task.region == name and not task.absent
    assert [(g.intent, g.slots["name"]) for g in task.goals] == [("street", "Koulukatu")]


# ----------------------------------------------------------------------------- facility words added
def _osm_count(region: str, key: str, values: tuple[str, ...]) -> int:
    """Features of the extract tagged key=value (points and areas), read with pyogrio from the PBF."""
    n = 0
    for layer in ("points", "multipolygons"):
        df = pyogrio.read_dataframe(ROOT / "resources" / "data" / f"{region}.osm.pbf", layer=layer,
                                    read_geometry=False)
        col = df[key].fillna("") if key in df.columns else None
        tags = df["other_tags"].fillna("")
        n += sum((col is not None and col.iloc[i] in values) or any(f'"{key}"=>"{v}"' in tags.iloc[i] for v in values)
                 for i in range(len(df)))
    return n


@pytest.mark.parametrize("request_, key, values", [
    ("montako lääkäriä on?", "amenity", ("doctors",)),   # a doctor, not a clinic (round 13: docs/ask.md)
    ("how many doctor's offices are there?", "amenity", ("doctors", "clinic")),
    ("montako päiväkotia on?", "amenity", ("kindergarten",)),
    ("montako kioskia on?", "shop", ("kiosk",)),
    ("montako kampaamoa on?", "shop", ("hairdresser",)),
    ("how many bakeries are there?", "shop", ("bakery",)),
    ("montako markettia on?", "shop", ("supermarket",)),
])
@pytest.mark.parametrize("region", REGIONS)
def test_each_added_facility_word_counts_its_osm_tag_in_both_regions(request_, key, values, region, tmp_path):
    out = ask(request_, region, None, root=tmp_path)
    (call,) = [c for c in out["tool_calls"] if c["status"] == "ok"]
    assert call["result"]["count"] == _osm_count(region, key, values), (out.get("answer"), call)
