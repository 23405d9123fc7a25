"""A count of one kind in each of two areas, and which has more (rule count.each-area): each area's count
is the count tool's own for that area, and the comparison names the area with the larger count."""
from cityplanner.plugin.agent.ask.agent import answer_request
from cityplanner.plugin.agent.tools import default_registry


def test_which_of_two_blocks_has_more_states_each_tool_count(tmp_path):
    reg = default_registry(tmp_path)
    out = answer_request("Which of Valas and Kaniini has more restaurants?", reg, None, "helsinki")
    counts = [c for c in out["tool_calls"] if c["tool"] == "find_features"]
    assert [c["params"].get("area") for c in counts] == ["Valas", "Kaniini"]
    # the same counts asked of the tool directly, one area at a time
    own = {a: reg.call("find_features", {"region": "helsinki", "category": "business", "tag": "amenity=restaurant",
                                            "area": a}).result["count"] for a in ("Valas", "Kaniini")}
    assert own["Valas"] != own["Kaniini"]
    more = max(own, key=own.get)
    assert f"{more} has more restaurants (Valas: {own['Valas']}, Kaniini: {own['Kaniini']})." in out["answer"]


def test_areas_each_counted_and_no_comparison_unless_asked(tmp_path):
    reg = default_registry(tmp_path)
    out = answer_request("Soopeli vs Sampi — cafes in each?", reg, None, "helsinki")
    assert [c["params"].get("area") for c in out["tool_calls"] if c["tool"] == "find_features"] == ["Soopeli", "Sampi"]
    assert " has more " not in out["answer"]
