"""No answer states a number that the tool results do not support (issue 29, zero wrong facts).

On the third held-out half nine answers were counted as contradicting a tool result; each held
numbers derived from a result, not wrong ones: the size of a counted area in km (worked out by
the reply from the bounds) and the "and N more" of a cut list (the count less the names shown).
Now the area's size is a figure of the tool result, and the checker (``judge.contradictions``)
accepts a cut list's N only where the names it lists plus N make a total of the results — a wrong
N is still a wrong fact. Quoted spans (the request read back, examples of a phrasing) are
citations, not claims."""
from __future__ import annotations

from cityplanner.plugin.agent.ask.judge import contradictions


def _record(answer, result, request="cafés near X"):
    return {"answer": answer, "request": request, "task": None,
            "tool_calls": [{"tool": "within_distance", "params": {"radius_m": 300.0}, "status": "ok", "result": result}]}


def _result(count, listed):
    return {"count": count, "radius_m": 300.0,
            "features": [{"name": f"Cafe {chr(65 + i)}", "straight_distance_m": 10.0 + i} for i in range(listed)]}


def test_a_cut_lists_more_is_supported_only_when_it_adds_up():
    names = ", ".join(f"Cafe {chr(65 + i)} ({10.0 + i} m)" for i in range(12))
    said = f"There are 16 cafés within 300 m of X (straight line): {names} and 4 more."
    assert contradictions(_record(said, _result(16, 16))) == []
    wrong = said.replace("and 4 more", "and 5 more")          # 12 + 5 is no total of the result
    assert [b.split(" ")[0] for b in contradictions(_record(wrong, _result(16, 16)))] == ["5"]
    one = "There are 12 car parks in the kotka data, e.g. Malminki (Malminginkatu) and 11 more."
    assert contradictions(_record(one, {"count": 12, "features": []})) == []
    assert contradictions(_record(one.replace("11 more", "3 more"), {"count": 12, "features": []})) != []


def test_quoted_examples_are_not_claims_but_numbers_outside_quotes_are():
    said = ("I could not read 'Do something with 800 tonnia.' — say it as, e.g., 'cafés within 300 m of "
            "Oodi' or 'plan chargers in Kotka with 300 k€'.")
    assert contradictions({"answer": said, "request": "Do something with 800 tonnia.", "task": None,
                           "tool_calls": []}) == []
    assert contradictions({"answer": "There are 300 cafés.", "request": "cafés?", "task": None,
                           "tool_calls": []}) == ["300 in: There are 300 cafés."]


def test_area_and_cut_list_answers_hold_no_unsupported_number(tmp_path):
    """End to end: a count over an approximated area (its size in km) and a cut list within a
    radius; the expected size is computed here from the name index, not from the tool."""
    from cityplanner.plugin.agent.ask.agent import answer_request
    from cityplanner.plugin.agent.tools import default_registry
    from cityplanner.plugin.city.names import name_index

    reg = default_registry(tmp_path)
    out = answer_request("How many restaurants are in Kluuvi?", reg, None, "helsinki")
    kluuvi = next(f for f in name_index("helsinki").features if f.name == "Kluuvi" and f.kind == "place")
    x0, y0, x1, y1 = kluuvi.area.bounds
    assert f"about {(x1 - x0) / 1000:.1f} × {(y1 - y0) / 1000:.1f} km" in out["answer"]
    assert contradictions({**out, "request": "How many restaurants are in Kluuvi?"}) == []
    out = answer_request("restaurants within 400 m of Kiasma", reg, None, "helsinki")
    assert " more." in out["answer"], out["answer"]          # a cut list, so "and N more" is stated
    assert contradictions({**out, "request": "restaurants within 400 m of Kiasma"}) == []


def test_a_budget_share_read_back_is_supported_by_the_items_expected_budget_only():
    """"a fifth of 2.5 million euros" read back as 500 k€: the request writes 2.5 million, not 500, so
    only the item's own expected budget (its author's reading) supports the figure; another is wrong."""
    from cityplanner.plugin.agent.ask.judge import judge

    request = "Our budget is a fifth of 2.5 million euros. What should we build in Helsinki?"
    record = {"clarification": "Before I act I need the kind of plan. Budget read as 500 k€ (from 'a fifth of 2.5 "
                               "million euros').", "request": request, "task": None, "tool_calls": []}
    assert [b.split(" ")[0] for b in contradictions(record)] == ["500"]
    item = {"id": "x", "region": "helsinki", "request": request,
            "expect": {"kind": "clarify", "missing": ["task"], "budget_keur": 500}}
    assert judge(item, record)["contradictions"] == []
    wrong = {**record, "clarification": record["clarification"].replace("500 k€", "400 k€")}
    assert [b.split(" ")[0] for b in judge(item, wrong)["contradictions"]] == ["400"]
