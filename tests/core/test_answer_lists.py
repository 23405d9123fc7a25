"""Answers: every name when twelve or fewer exist, else how many more; a cut street list says
so; Finnish facility words get no English plural ending (the English category carries the
number). Sentence level: the expected strings are written out by hand."""
from __future__ import annotations

from cityplanner.plugin.agent.ask import synthesis
from cityplanner.plugin.agent.ask.cognition import Goal


def _feats(n):
    return [{"name": f"Place {i}"} for i in range(n)]


def test_all_names_up_to_twelve_then_how_many_more():
    assert synthesis._names_list(_feats(12), 12, with_street=False) == ", ".join(f"Place {i}" for i in range(12))
    assert synthesis._names_list(_feats(7), 7, n=5) == ", ".join(f"Place {i}" for i in range(7))   # few: all
    cut = synthesis._names_list(_feats(20), 30, with_street=False)
    assert cut.endswith("Place 11 and 18 more") and "Place 12" not in cut and "others" not in cut


def test_a_cut_street_list_says_so():
    assert synthesis._via(["A", "B"]) == " via A, B"
    assert synthesis._via([f"S{i}" for i in range(15)]).endswith("S11 and 3 more streets")
    assert synthesis._via([]) == ""


def test_plurals_in_both_languages():
    what = lambda word, cat, n, tag=None: synthesis._what(Goal("count", {"word": word, "category": cat, "tag": tag}), n)  # noqa: E731
    assert what("pharmacy", "clinic", 3, "amenity=pharmacy") == "pharmacies (clinic, amenity=pharmacy)"
    assert what("schools", "school", 1) == "school"
    assert what("koulut", "school", 3) == "schools ('koulut')"              # not "kouluts"
    assert what("latauspiste", "charging", 4) == "charging points ('latauspiste')"
    assert what("apteekki", "clinic", 1, "amenity=pharmacy") == "clinic ('apteekki', amenity=pharmacy)"
    assert what("kahvilat", "business", 2, "amenity=cafe") == "businesses ('kahvilat', amenity=cafe)"
    # English endings after ch / sh / x / s: "churches", "boxes", "campuses"; singular back again
    assert [synthesis._number(w, n) for w, n in (("church", 3), ("churches", 1), ("box", 2), ("campus", 2),
                                                 ("glasses", 1), ("bus", 1), ("cafés", 1), ("cinemas", 1))] == \
        ["churches", "church", "boxes", "campuses", "glass", "bus", "café", "cinema"]
    assert what("Restaurants", "business", 4, "amenity=restaurant") == "restaurants (business, amenity=restaurant)"


def test_area_answers_say_the_bounds_counted_over(tmp_path):
    """Kluuvi is a place node: its area is approximated; the answer gives that area's size and bounds."""
    from cityplanner.plugin.agent.ask.agent import answer_request
    from cityplanner.plugin.agent.tools import default_registry
    from cityplanner.plugin.city.names import name_index

    out = answer_request("How many cafés are in Kluuvi?", default_registry(tmp_path), None, "helsinki")
    kluuvi = next(f for f in name_index("helsinki").features if f.name == "Kluuvi" and f.kind == "place")
    x0, y0, x1, y1 = kluuvi.area.bounds
    line = next(s for s in out["answer"].splitlines() if s.startswith("The area of Kluuvi counted"))
    assert "approximated" in line and f"x {x0:.0f}–{x1:.0f}, y {y0:.0f}–{y1:.0f}" in line
    assert f"about {(x1 - x0) / 1000:.1f} × {(y1 - y0) / 1000:.1f} km" in line


def test_near_in_a_plan_request_is_a_constraint_said_in_the_reply(tmp_path):
    """"Plan chargers near Kiasma": the plan is held to at least one site within 500 m of Kiasma
    (the default 'near', stated), stored as an instruction of that plan's own workspace; a plain
    plan of the same task and budget is not held to it."""
    import shapely

    from cityplanner.plugin.agent.ask.agent import answer_request
    from cityplanner.plugin.agent.tools import default_registry
    from cityplanner.plugin.constraints import store
    from cityplanner.plugin.sandbox.workspace import load_instance

    reg = default_registry(tmp_path)
    out = answer_request("Plan chargers near Kiasma with 300k", reg, None, "helsinki")
    tools = [c["tool"] for c in out["tool_calls"]]
    assert tools == ["build_instance", "add_constraint", "solve_plan", "evaluate_plan"]
    assert "Held to what the request said: at least 1 selected within 500 m of Kiasma" in out["answer"]
    ws = reg.ctx.workspace(out["tool_calls"][0]["result"]["workspace"])
    (c,) = store.load(ws)
    inst = load_instance(ws)
    solved = next(x["result"] for x in out["tool_calls"] if x["tool"] == "solve_plan")
    kiasma = shapely.from_wkt(c["geometry"])
    geoms = {i: shapely.from_wkt(w) for i, w in zip(inst.ids, inst.candidates["wkt"], strict=False)} if "wkt" in inst.candidates \
        else {i: shapely.Point(x, y) for i, x, y in zip(inst.ids, inst.candidates["x"], inst.candidates["y"], strict=False)}
    assert solved["valid"] and any(shapely.distance(geoms[s["id"]], kiasma) <= 500.0 for s in solved["sites"])
    plain = answer_request("Plan chargers with 300k", reg, None, "helsinki")
    assert "Held to" not in plain["answer"]
    assert store.load(reg.ctx.workspace(plain["tool_calls"][0]["result"]["workspace"])) == []


def test_a_park_the_city_model_keeps_in_parts_is_a_park_in_every_part(tmp_path):
    """Kumparepuisto is one OSM polygon (leisure=park, read here with GDAL's OSM driver) that the
    City holds as several POIs; every part carries the park's tags, so 'how many parks' counts each
    (before, the parts away from the polygon's representative point had no tags)."""
    import geopandas as gpd
    import shapely

    from cityplanner.plugin.agent.ask.agent import answer_request
    from cityplanner.plugin.agent.tools import default_registry
    from cityplanner.plugin.city import load_city
    from cityplanner.plugin.city.names import name_index
    from cityplanner.plugin.city.regions import REGIONS, region_path

    osm = gpd.read_file(region_path(str(REGIONS["kotka"])), layer="multipolygons", where="name = 'Kumparepuisto'")
    assert list(osm["leisure"]) == ["park"]
    city = load_city("kotka")
    park = shapely.make_valid(osm.to_crs(city.crs).geometry.iloc[0])
    parts = [f"poi:{i}" for i, r in city.pois.iterrows() if r["name"] == "Kumparepuisto"
             and shapely.distance(park, r.geometry) <= 1.0]
    assert len(parts) >= 2
    tags = name_index("kotka").poi_tags
    assert all(tags.get(p, {}).get("leisure") == "park" for p in parts)
    out = answer_request("how many parks are there in Karhula?", default_registry(tmp_path), None, "kotka")
    assert out["answer"].startswith(f"There are {len(parts)} parks (green, leisure=park) in the kotka data")


def test_a_count_names_all_when_all_are_named_and_few_else_gives_examples(tmp_path):
    """"How many schools": the kotka data's schools all have names and are few, so the answer lists
    them (no "e.g."); its car parks are mostly unnamed, so the named ones are examples."""
    from cityplanner.plugin.agent.ask.agent import answer_request
    from cityplanner.plugin.agent.tools import default_registry
    from cityplanner.plugin.city import load_city

    pois = load_city("kotka").pois
    schools = pois[pois["category"] == "school"]
    assert 0 < len(schools) <= 12 and schools["name"].notna().all()
    reg = default_registry(tmp_path)
    out = answer_request("How many schools are there?", reg, None, "kotka")["answer"]
    assert out.startswith(f"There are {len(schools)} schools in the kotka data: ") and "e.g." not in out
    assert all(n in out for n in schools["name"])
    parks = pois[pois["category"] == "parking"]
    assert parks["name"].isna().any()
    out = answer_request("How many car parks are there?", reg, None, "kotka")["answer"]
    assert out.startswith(f"There are {len(parks)} car parks (parking) in the kotka data, e.g. ")


def test_a_conditions_own_facts_say_no_yes_or_no_of_their_own(tmp_path):
    """"Are there at least 3 schools in Kluuvi? If yes …": the count found (computed here from the
    reply's own tool result) is stated, and only the Condition line says which way it went — a
    "Yes:" before one school would contradict "at least 3"."""
    from cityplanner.plugin.agent.ask.agent import answer_request
    from cityplanner.plugin.agent.tools import default_registry

    out = answer_request("Are there at least 3 schools in Kluuvi? If yes list them, if not the nearest school to Kiasma",
                         default_registry(tmp_path), None, "helsinki")
    n = out["tool_calls"][0]["result"]["count"]
    assert not out["answer"].startswith(("Yes", "No"))
    assert f"Condition: the count is {n}, which is {'' if n >= 3 else 'not '}>= 3" in out["answer"]


def test_a_count_along_a_street_says_how_many_are_addressed_on_it_in_agreeing_grammar():
    from cityplanner.plugin.agent.ask.intents.find import street_line
    area = lambda k: {"kind": "street", "name": "Yrjönkatu", "corridor_m": 40, "addressed": k}  # noqa: E731
    head = "Counted along Yrjönkatu: within 40 m of the street's line, or with Yrjönkatu as the address"
    assert street_line(area(1), 4) == head + (" (1 of them is addressed on it; the others stand within that "
                                              "distance of it, e.g. at a corner).")
    assert street_line(area(2), 3) == head + (" (2 of them are addressed on it; the other stands within that "
                                              "distance of it, e.g. at a corner).")
    assert street_line(area(1), 1) == head + " (it is addressed on it)."
    assert street_line(area(0), 1) == head + " (it is not addressed on it: it stands within that distance of it)."
    assert street_line(area(0), 0) == head + "."
    assert street_line({"kind": "area", "name": "Kamppi"}, 3) == ""
