"""The readers on cities that are not ours: a planner's own layers from New York (OSM streets with
names, UTM 18N), a Finnish-named grid city of our own written in degrees, Tempe (Arizona, US feet,
no names) and Soho 1854 (Web Mercator, no names). Each class of request runs through the real
reader and tools (``ask`` with the own layers as one more region, as ``python -m plugin ask --roads``
makes it; ``instance`` and ``instruct`` through the CLI), and every expected fact is computed here
from the GeoPackage itself with geopandas / shapely, not by the code under test."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import pytest
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import own_city  # noqa: E402

from cityplanner.plugin.agent.ask import ask  # noqa: E402
from cityplanner.plugin.city.inputs import CityInputs, city_from_inputs, source_gpkg  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXTERNAL = ROOT / "tests" / "data" / "external"
NYC = EXTERNAL / "nyc_uws.gpkg"
#: the grid city's streets (own_city's 5 × 4 grid: six north–south lines, then five east–west), Finnish names
GRID_NAMES = ["Puistokatu", "Rantatie", "Koulukatu", "Tehtaanpuistotie", "Kirkkokatu", "Asematie",
              "Myllykatu", "Satamatie", "Torikatu", "Metsätie", "Kauppakatu"]
TOUCH_M = 0.5


@pytest.fixture(scope="module")
def grid(tmp_path_factory) -> Path:
    """own_city's layers with street names, written in EPSG:4326 (the reader must reproject)."""
    f = own_city.frames()
    path = tmp_path_factory.mktemp("grid") / "kaupunki.gpkg"
    streets = f["katu"].assign(name=GRID_NAMES[: len(f["katu"])])
    streets.to_crs("EPSG:4326").to_file(path, layer="katu", driver="GPKG", engine="pyogrio")
    f["asukkaat"].to_crs("EPSG:4326").to_file(path, layer="asukkaat", driver="GPKG", engine="pyogrio")
    return path


FILES = {
    "nyc": (lambda grid: CityInputs(roads=f"{NYC}:streets"), lambda grid: (NYC, "streets", "EPSG:32618")),
    "grid": (lambda grid: CityInputs(roads=f"{grid}:katu", demand=f"{grid}:asukkaat", demand_field="asukasluku"),
             lambda grid: (grid, "katu", own_city.UTM)),
}


@pytest.fixture(scope="module")
def regions(grid, tmp_path_factory) -> dict[str, tuple[str, Path]]:
    """Each foreign file as the ask command makes it: one more region under the layers' name."""
    root = tmp_path_factory.mktemp("own-layers")
    out = {}
    for key, (inputs, _) in FILES.items():
        city = city_from_inputs(inputs(grid))
        out[key] = (city.name, source_gpkg(city, root / f"{city.name}.gpkg"))
    return out


def streets_of(key: str, grid: Path) -> dict[str, shapely.Geometry]:
    """The file's street lines by name, in a metric CRS: the independent truth."""
    path, layer, crs = FILES[key][1](grid)
    g = gpd.read_file(path, layer=layer).to_crs(crs)
    return {n: shapely.union_all(grp.geometry.to_numpy()) for n, grp in g.groupby("name")}


def run_ask(request: str, key: str, regions, tmp_path) -> dict:
    name, path = regions[key]
    return ask(request, name, None, root=tmp_path, regions={name: path})


def call(out: dict, tool: str) -> dict:
    got = [c for c in out["tool_calls"] if c["tool"] == tool and c["status"] == "ok"]
    assert got, (out.get("answer") or out.get("clarification"), out["tool_calls"])
    return got[-1]["result"]


# ----------------------------------------------------------------------------- a street's length
LENGTH = [
    ("nyc", "How long is Broadway?", "Broadway"),
    ("nyc", "What is the length of Columbus Ave?", "Columbus Avenue"),
    ("nyc", "how long is West 88th Street", "West 88th Street"),
    ("nyc", "kuinka pitkä on Amsterdam Avenue?", "Amsterdam Avenue"),
    ("grid", "How long is Koulukatu?", "Koulukatu"),
    ("grid", "Kuinka pitkä on Tehtaanpst?", "Tehtaanpuistotie"),
    ("grid", "What is the length of Myllyk.?", "Myllykatu"),
]


@pytest.mark.parametrize("key, request_, street", LENGTH, ids=[r for _, r, _ in LENGTH])
def test_a_street_length_is_a_fact_of_the_data(key, request_, street, regions, grid, tmp_path):
    out = run_ask(request_, key, regions, tmp_path)
    line = streets_of(key, grid)[street]
    r = call(out, "street_facts")
    assert out["task"]["trace"] == ["street.length"]
    assert r["street"]["name"] == street and r["length_m"] == pytest.approx(line.length, abs=0.5)
    assert f"{r['length_m']:g} m" in out["answer"] and "only the part inside the data is measured" in out["answer"]
    pieces = len(shapely.get_parts(line.buffer(TOUCH_M)))
    assert r["pieces"] == pieces and (("separate pieces" in out["answer"]) == (pieces > 1))


# ----------------------------------------------------------------------------- the streets crossing one
CROSSING = [
    ("nyc", "Which streets cross West 86th St?", "West 86th Street"),
    ("nyc", "What intersects Central Park West?", "Central Park West"),
    ("nyc", "Which streets cross Broadway?", "Broadway"),
    ("grid", "Which streets cross Koulukatu?", "Koulukatu"),
    ("grid", "Mitkä kadut risteävät Puistokadun kanssa?", "Puistokatu"),
    ("grid", "Which roads meet Asemat.?", "Asematie"),
]


@pytest.mark.parametrize("key, request_, street", CROSSING, ids=[r for _, r, _ in CROSSING])
def test_the_streets_that_cross_a_street(key, request_, street, regions, grid, tmp_path):
    out = run_ask(request_, key, regions, tmp_path)
    lines = streets_of(key, grid)
    expect = sorted(n for n, g in lines.items() if n != street and g.distance(lines[street]) <= TOUCH_M)
    r = call(out, "street_facts")
    assert out["task"]["trace"] == ["street.crossings"] and r["crossing"] == expect and expect
    assert f"({len(expect)}): {', '.join(expect)}." in out["answer"]
    assert "not in the" not in out["answer"]


# ----------------------------------------------------------------------------- street-type short forms
SHORT = [
    ("nyc", "How far is West 86th St. from Amsterdam Ave?", ["West 86th Street", "Amsterdam Avenue"]),
    ("nyc", "route from Columbus Ave to West End Ave.", ["Columbus Avenue", "West End Avenue"]),
    ("nyc", "Where is West 92nd St?", ["West 92nd Street"]),
    ("grid", "How far is Koulukatu from Kauppak.?", ["Koulukatu", "Kauppakatu"]),
    ("grid", "route from Tehtaanpst to Rantat.", ["Tehtaanpuistotie", "Rantatie"]),
    ("grid", "Where is Myllyk.?", ["Myllykatu"]),
]


@pytest.mark.parametrize("key, request_, streets", SHORT, ids=[r for _, r, _ in SHORT])
def test_street_type_short_forms_are_read_from_the_table(key, request_, streets, regions, grid, tmp_path):
    out = run_ask(request_, key, regions, tmp_path)
    assert out["task"]["entities"]["places"] == streets and not out["task"]["entities"]["places_absent"]
    assert "answer" in out and "not in the" not in out["answer"]
    assert set(streets) <= set(streets_of(key, grid))


ABSENT = [
    ("nyc", "How long is West 99th St?", "West 99th St"),   # one digit from West 89th / 90th Street: never read so
    ("nyc", "Which streets cross 5th Avenue?", "5th Avenue"),
    ("nyc", "How long is Riverside Dr?", "Riverside Dr"),
    ("grid", "How long is Kirkkot.?", "Kirkkot"),   # 'Kirkkot.' would be a Kirkkotie: the data has Kirkkokatu
    ("grid", "Which streets cross Satamak.?", "Satamak"),
    ("grid", "How long is Main Street?", "Main Street"),
]


@pytest.mark.parametrize("key, request_, written", ABSENT, ids=[r for _, r, _ in ABSENT])
def test_a_street_the_data_lacks_is_said_absent_never_a_neighbour(key, request_, written, regions, tmp_path):
    out = run_ask(request_, key, regions, tmp_path)
    reply = out.get("answer") or out.get("clarification")
    assert f"'{written}" in reply and "is not in the" in reply, reply
    assert not [c for c in out["tool_calls"] if c["tool"] == "street_facts" and c["status"] == "ok"]
    assert "matches several places" not in reply


# ----------------------------------------------------------------------------- a plan near a street
NEAR = [
    ("nyc", "Build a road plan, 2 M€, within 300 m of Central Park West", "Central Park West", 300.0),
    ("nyc", "road plan with 1.5 M€ within 150 m of West 86th St", "West 86th Street", 150.0),
    ("nyc", "Plan new roads with 800k within 100 m of Broadway", "Broadway", 100.0),
    ("grid", "Plan chargers with 300k within 100 m of Koulukatu", "Koulukatu", 100.0),
    ("grid", "charging station plan, 250 k€, within 60 m of Tehtaanpst", "Tehtaanpuistotie", 60.0),
    ("grid", "Plan charging stations with 400k within 80 m of Kauppakatu", "Kauppakatu", 80.0),
]


@pytest.mark.slow  # six plans solved (HiGHS)
@pytest.mark.parametrize("key, request_, street, radius", NEAR, ids=[r for _, r, _, _ in NEAR])
def test_a_plan_near_a_street_is_held_to_its_line(key, request_, street, radius, regions, grid, tmp_path):
    out = run_ask(request_, key, regions, tmp_path)
    held = call(out, "add_constraint")
    c = held["constraints"][0]
    assert (c["kind"], c["distance_m"], c["target"]["name"]) == ("count_min", radius, street)
    assert f"from the line of {street}" in out["answer"]
    # the plan's sites: at least one within the radius of the street's line, measured here from the file
    ws = tmp_path / call(out, "build_instance")["workspace"]
    chosen = json.loads((ws / "outputs" / "final_plan.json").read_text())["candidate_ids"]
    assert chosen and min(shapely.distance(_sites(ws, chosen), streets_of(key, grid)[street])) <= radius + 1e-6


def test_near_a_street_without_a_distance_is_asked_in_an_instruction(grid, tmp_path):
    ws = tmp_path / "ws"
    _cli("instance", "--task", "station", "--roads", f"{grid}:katu", "--demand", f"{grid}:asukkaat",
         "--demand-field", "asukasluku", "--out", str(ws))
    out = _cli("instruct", str(ws), "no charger near Koulukatu", "--rules-only")
    assert out["clarification"] and "distance" in out["clarification"] and not out["constraints"]


# ----------------------------------------------------------------------------- instructions on own layers
INSTRUCT = [
    ("no station within 100 m of Tehtaanpuistotie", "exclude_near", "Tehtaanpuistotie", 100.0),
    ("at least two stations within 150 m of Koulukatu", "count_min", "Koulukatu", 150.0),
    ("no station within 100 m of Puistokadun", "exclude_near", "Puistokatu", 100.0),
    ("no chargers within 90 m of Tehtaanpst", "exclude_near", "Tehtaanpuistotie", 90.0),
]


@pytest.mark.slow  # a workspace built and four instructions priced by the MILP
def test_instructions_on_own_layers_measure_from_the_street_line(grid, tmp_path):
    ws = tmp_path / "ws"
    _cli("instance", "--task", "station", "--roads", f"{grid}:katu", "--demand", f"{grid}:asukkaat",
         "--demand-field", "asukasluku", "--out", str(ws))
    lines = streets_of("grid", grid)
    for text, kind, street, dist in INSTRUCT:
        out = _cli("instruct", str(ws), text, "--rules-only", "--time-limit", "10")
        c = out["constraints"][0]
        assert (c["kind"], c["target"]["name"], c["distance_m"]) == (kind, street, dist), text
        assert f"from the line of {street}" in c["note"]
    out = _cli("instruct", str(ws), INSTRUCT[0][0], "--apply", "--rules-only", "--time-limit", "10")
    assert out["applied"]
    # the stored geometry is the street's line (the file's, reprojected), not a point or a buffer
    stored = json.loads((ws / "constraints" / "instructions.json").read_text())
    stored = stored["constraints"] if isinstance(stored, dict) else stored
    line = shapely.from_wkt(stored[0]["geometry"])
    assert line.geom_type in ("LineString", "MultiLineString") and line.hausdorff_distance(lines["Tehtaanpuistotie"]) < 1.0
    # and the plan keeps every station farther than 100 m from that line, measured here
    sites = _sites(ws, out["plan"]["candidate_ids"])
    assert len(sites) and min(shapely.distance(sites, lines["Tehtaanpuistotie"])) > 100.0
    absent = _cli("instruct", str(ws), "no station within 100 m of Main Street", "--rules-only")
    assert "'Main Street' is not in the" in absent["clarification"] and not absent["constraints"]


# ----------------------------------------------------------------------------- cities without names
NAMELESS = [
    ("tempe", ["--pois", f"{EXTERNAL / 'tempe.gpkg'}:schools", "--category-field", "category"],
     "nearest school to Mill Avenue", "Mill Avenue"),
    ("tempe", [], "How long is University Drive?", "University Drive"),
    ("tempe", [], "Which streets cross Apache Blvd?", "Apache Blvd"),
    ("soho_1854", [], "How long is Broad Street?", "Broad Street"),
    ("soho_1854", [], "Which streets cross Broad St?", "Broad St"),
    ("soho_1854", [], "nearest pump to Golden Square", "Golden Square"),
]


@pytest.mark.parametrize("name, extra, request_, written", NAMELESS, ids=[r for _, _, r, _ in NAMELESS])
def test_a_city_without_names_never_gets_one_invented(name, extra, request_, written):
    out = _cli("ask", "--roads", f"{EXTERNAL / (name + '.gpkg')}:streets", *extra, request_)
    reply = out.get("answer") or out.get("clarification")
    streets = gpd.read_file(EXTERNAL / f"{name}.gpkg", layer="streets")
    assert "name" not in streets.columns   # the file holds no names: nothing may be found by one
    assert not [c for c in out["tool_calls"] if c["status"] == "ok"], out["tool_calls"]
    assert out["task"]["entities"]["places"] == [] and f"'{written}' is not in the {name} data" in reply


def _sites(ws: Path, ids: list[str]) -> list[shapely.Geometry]:
    """The geometries of candidates ``ids`` from the workspace's candidate table."""
    rows = {r["id"]: r for r in json.loads((ws / "input" / "candidates.json").read_text())}
    return shapely.from_wkt([rows[i]["wkt"] for i in ids])


def _cli(*args: str) -> dict:
    p = subprocess.run([sys.executable, "-m", "plugin", *args], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)
