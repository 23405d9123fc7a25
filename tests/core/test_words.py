"""Numbers in words (``plugin.util.words``): the gap is a rounded percentage, never "-0.0 %"."""
from cityplanner.plugin.util.words import gap_text, keur, metres, percent, result_sentence, sites_sentence


def test_percent_rounds_and_never_shows_minus_zero():
    assert percent(0.0661) == "6.6 %"
    assert percent(-1e-12) == "0.0 %" and percent(-0.0004) == "0.0 %" and percent(-0.0) == "0.0 %"
    assert percent(0.00049) == "0.0 %" and percent(0.0005, 2) == "0.05 %"
    assert percent(1.0, 0) == "100 %" and percent(None) == "–"
    assert percent(-0.012) == "-1.2 %"     # a real negative value keeps its sign


def test_gap_money_distance():
    assert gap_text(-2.3e-9) == "gap 0.0 %" and gap_text(0.25) == "gap 25.0 %"
    assert gap_text(None).startswith("gap unknown")
    assert keur(657.1) == "657.1 k€" and keur(1234.56) == "1 234.6 k€"
    assert metres(300.4) == "300 m" and metres(1234) == "1.2 km" and metres(-0.2) == "0 m"


def test_result_sentence_has_units_and_the_rounded_gap():
    row = {"method": "default", "valid": True, "score": 0.3560806025605573, "upper_bound": 0.3811,
           "gap": (0.3811 - 0.3560806025605573) / 0.3811, "selected": 7, "seconds": 12.34}
    s = result_sentence(row, budget=657.1, cost_ratio=0.93, candidates=80)
    assert s == ("The plan is valid: score 0.3561, at most 0.3811 is possible (proven bound), gap 6.6 %; "
                 "7 selected of 80 candidates by default in 12.3 s; it spends 611.1 k€ of the 657.1 k€ budget (93 %).")
    assert "bound=" not in s and "0.356080" not in s
    optimal = result_sentence({**row, "score": 0.3811, "gap": -1e-12})
    assert "gap 0.0 %" in optimal and "-0.0" not in optimal
    assert "no bound certified" in result_sentence({"valid": False, "score": None, "upper_bound": None})


def test_sites_sentence():
    assert sites_sentence([]) == ""
    assert sites_sentence(["a on X", "b"], limit=1) == "Sites: a on X (and 1 more)."
