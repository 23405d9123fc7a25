"""Classes of the ask seventh half (issue 29, round 6a), each with phrasings of our own, answered end
to end by the rules (no model): "on <street>" counts along the street's line and says so; a route
between two places named only by kind asks which (and the region), never picks; a plan that selects
nothing answers a follow-up about its streets plainly. Expected counts are computed here from the
city's own edges and POI tags, not by the tools under test."""
from __future__ import annotations

import re

import numpy as np
import pytest

from cityplanner.plugin.agent.ask.agent import answer_request
from cityplanner.plugin.agent.tools import default_registry
from cityplanner.plugin.city import load_city
from cityplanner.plugin.city.names import name_index, normalise


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    return default_registry(tmp_path_factory.mktemp("ws"))


def _reply(out: dict) -> str:
    return out.get("answer") or out.get("clarification") or ""


def _along(region: str, street: str, amenity: str) -> int:
    """POIs with amenity=<amenity> within 40 m of the street's edges, or addressed on the street."""
    import shapely

    city = load_city(region)
    idx = name_index(region)
    e = city.edges
    line = shapely.union_all(e[e["name"] == street].geometry.values)
    ids = [f for f in idx.features if f.kind == "poi" and dict(f.tags).get("amenity") == amenity]
    xy = np.array([[f.x, f.y] for f in ids])
    near = shapely.dwithin(shapely.points(xy[:, 0], xy[:, 1]), line, 40.0)
    addr = np.array([normalise(idx.poi_tags.get(f.id, {}).get("addr:street", "")) == normalise(street) for f in ids])
    return int((near | addr).sum())


@pytest.mark.parametrize("request_text,street,amenity", [
    ("Restaurants along Mannerheimintie - how many?", "Mannerheimintie", "restaurant"),
    ("ravintoloita Yrjönkadulla, montako?", "Yrjönkatu", "restaurant"),
    ("how many cafés on Bulevardi?", "Bulevardi", "cafe"),
])
def test_on_a_street_counts_along_its_line_and_says_the_distance(registry, request_text, street, amenity):
    out = answer_request(request_text, registry, None, "helsinki")
    reply = _reply(out)
    n = _along("helsinki", street, amenity)
    assert re.search(rf"\b{n}\b", reply), reply
    assert f"on {street}" in reply and "within 40 m of the street's line" in reply
    assert "× " not in reply   # no bounding box said for a street


@pytest.mark.parametrize("request_text,region", [
    ("Could you work out how far it is by road from the school to the kindergarten?", None),
    ("how many metres by road to the pharmacy from the library?", "helsinki"),
    ("what is the road distance from the school to the fuel station?", "kotka"),
])
def test_a_route_between_places_named_by_kind_asks_which_never_picks(registry, request_text, region):
    out = answer_request(request_text, registry, None, region)
    reply = out.get("clarification") or ""
    assert reply and not out["tool_calls"], _reply(out)
    assert "place" in reply
    assert ("region" in reply) == (region is None)
    if region == "kotka":   # "school" is the data's whole school category: each named one is offered
        schools = sorted({f.name for f in name_index("kotka").features if f.kind == "poi" and f.category == "school"
                          and f.name})
        assert len(schools) >= 2 and all(s in reply for s in schools)


def test_a_plan_that_selects_nothing_answers_the_streets_follow_up(registry):
    # 1.2 M€ of land use in central Helsinki selects no parcel (no selection improves the score)
    out = answer_request("make me a land-use plan with 1.2 million and then tell me what streets the parcels are on",
                         registry, None, "helsinki")
    reply = _reply(out)
    assert "selects 0 candidates" in reply
    assert "The plan selects no parcel, so there are no streets to name." in reply


@pytest.mark.parametrize("request_text,op,value", [
    ("Jos Karhulassa on enemmän kuin kaksi huoltoasemaa, tiesuunnitelma 500 k€; muuten maankäyttösuunnitelma 500 k€",
     ">", 2.0),
    ("Jos Karhulassa on vähintään 2 huoltoasemaa, tiesuunnitelma 500 k€; muuten maankäyttösuunnitelma 500 k€", ">=", 2.0),
    ("jos Ketokujalta Kosselinkadulle on tietä pitkin yli 2 km, tiesuunnitelma 900 k€; muuten lähin huoltoasema "
     "Kosselinkadulta", ">", 2000.0),
    ("Jos Karhulassa on alle kolme koulua, maankäyttösuunnitelma 300 k€", "<", 3.0),
])
def test_a_finnish_condition_tests_what_it_says(request_text, op, value):
    from cityplanner.plugin.agent.ask.cognition import extract

    task = extract(request_text, name_index, ("helsinki", "kotka"), "kotka")
    assert task.test == {"op": op, "value": value}
    assert [g.branch for g in task.goals][:2] == ["if", "then"]
