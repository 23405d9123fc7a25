"""Evidence-aligned synthesis: Clean, Align, Verify (docs/reference.md#urbanagent-and-urbaneval).

The answer starts with the facts, written deterministically from the tool results goal by
goal (``goal_facts``: names, numbers, streets, a plan's sites with where they are and what
they serve, the outcome of a condition, "none" as an answer), so they are supported by
construction and every part of a compound request gets its line. A model sentence follows
only when it passes ``verify``: every number in the evidence (within rounding), every data
name it uses among the names in the evidence, and no capitalised word (a place, a country)
that the evidence lacks; process narration and follow-up offers are dropped. Limitations are
stated, never filled in.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...city import lexicon
from ...city.streets import site_label
from ..tools import Observation

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:[.,]\d+)?")
COORDS_ASKED = re.compile(r"\b(coordinates?|x\s*,\s*y|utm|easting|northing)\b", re.I)
NARRATION = re.compile(r"\b(I (?:will|called|used|have|am|'ll)|let me|tool|observation|would you like|feel free|"
                       r"let me know|as an ai)\b", re.I)


def _label(p: dict[str, Any]) -> str:
    return p.get("name") or f"an unnamed {p.get('category', 'feature')} ({p.get('id')})"


def fact_lines(obs: Observation) -> list[str]:
    """The facts one successful observation supports, as plain sentences."""
    r, a = obs.result or {}, obs.params
    if obs.tool == "region_summary":
        cats = ", ".join(f"{n} {c}" for c, n in r["pois_by_category"].items() if n)
        return [f"{r['region']} has {r['faces']} blocks, {r['roads']} road segments ({r['road_km']} km), "
                f"{r['buildings']} buildings and about {r['demand']:.0f} residents.",
                f"Points of interest in {r['region']}: {cats}."]
    if obs.tool == "find_features":
        what = a.get("category") or f"feature(s) matching '{a.get('name')}'"
        names = sorted({f["name"] for f in r["features"] if f["name"]})[:5]
        return [f"{r['count']} {what} found in {r['region']}" + (f", e.g. {', '.join(names)}." if names else ".")]
    if obs.tool == "nearest_facility":
        n = r["nearest"]
        if n is None:
            return [f"There is no {r['category']} in the {r['region']} data."]
        return [f"The nearest {r['category']} to {_label(r['origin'])} is {_label(n)}: "
                f"{n['network_distance_m']} m by road ({n['straight_distance_m']} m straight)."]
    if obs.tool == "route":
        via = _via(r["streets"])
        return [f"The road route from {_label(r['origin'])} to {_label(r['destination'])} is "
                f"{r['network_distance_m']} m{via} ({r['straight_distance_m']} m straight)."]
    if obs.tool == "within_distance":
        cats = ", ".join(f"{n} {c}" for c, n in r["by_category"].items())
        return [f"{r['count']} {a.get('category') or 'points of interest'} lie within {r['radius_m']:g} m of "
                f"{_label(r['center'])} ({cats})."]
    if obs.tool == "build_instance":
        return [f"Instance {r['instance_id']} (workspace {r['workspace']}): {r['candidates']} candidates, "
                f"budget {r['budget']} k€, at most {r['step_limit']} selections."]
    if obs.tool in ("solve_plan", "evaluate_plan"):
        who = f"The {r['method']} solver's plan" if obs.tool == "solve_plan" else "The evaluated plan"
        state = "valid" if r["valid"] else "invalid (" + "; ".join(r["errors"][:2]) + ")"
        return [f"{who} selects {r['selected']} candidates and is {state} with score {r['score']}."]
    if obs.tool == "participation_metrics":
        return [f"Over {r['residential_parcels']} residential parcels, Service is {r['service']} and "
                f"Ecology is {r['ecology']}."]
    return []


def numbers_in(obj: Any) -> set[float]:
    """Every number in a JSON value (strings included: a street named '… 3' counts)."""
    out: set[float] = set()
    if isinstance(obj, bool):
        return out
    if isinstance(obj, (int, float)):
        out.add(float(obj))
    elif isinstance(obj, str):
        out.update(float(m.replace(",", ".")) for m in NUMBER.findall(obj))
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= numbers_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= numbers_in(v)
    return out


def supported(value: float, evidence: set[float]) -> bool:
    """True when ``value`` is an evidence number as written, rounded, or in km for metres."""
    for e in evidence:
        for cand in (e, e / 1000.0):
            if abs(value - cand) <= max(0.5 * 10 ** -_decimals(value), 1e-9) or \
                    (cand and abs(value - cand) / abs(cand) < 0.005):
                return True
    return False


def _decimals(v: float) -> int:
    s = repr(v).rstrip("0").rstrip(".")
    return len(s.split(".")[1]) if "." in s else 0


def sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", text or "") if s.strip()]


NEGATIONS = {"not", "no", "never", "none", "nothing", "cannot", "without", "neither", "nor"}
ALIGN_MIN = 0.8   # share of a model sentence's content words that must come from one fact line


def aligned(sentence: str, facts: list[str]) -> bool:
    """True when one fact line holds every number and at least ``ALIGN_MIN`` of the content
    words of ``sentence``: the sentence restates that fact (a relation between names the facts
    never state — "the nearest school to A is B" built from two names of the request — or a
    detail of the model's own, "on the island of …", is not aligned)."""
    from ...city.names import GENERIC, normalise

    words = [w for w in normalise(sentence).split() if w not in GENERIC and len(w) > 2]
    if len(normalise(sentence).split()) < 4 or sentence.rstrip().endswith("?"):
        return False   # a fragment ("1.") or the request echoed back states no fact
    nums = NUMBER.findall(sentence)
    said = Counter(words)
    negations = NEGATIONS & set(normalise(sentence).split())
    caps = _capitals(sentence)
    for f in facts:
        fl = normalise(f)
        have = Counter(fl.split())
        if negations - set(have):
            continue   # "… which is not on the map" where the fact says no such thing
        where = {}
        for k, w in enumerate(_capitals(f)):
            where.setdefault(w, []).append(k)
        if any(a in where and b in where and not any(abs(i - j) <= 1 for i in where[a] for j in where[b])
               for a, b in zip(caps, caps[1:], strict=False)):
            continue   # names side by side that the fact keeps apart: "the closest to A is C" from
            #            "closer to A: B (…); C is …"
        # a word used more often than the fact uses it swaps a relation's ends ("the nearest
        # school to Ressun lukio is Ressun lukio" from "… to Stockmann is Ressun lukio")
        if any(n > have[w] for w, n in said.items() if w in have):
            continue
        if all(normalise(n) in fl for n in nums) and (not words or sum(w in have for w in words) >= ALIGN_MIN * len(words)):
            return True
    return False


def _capitals(text: str) -> list[str]:
    """Runs of capitalised words of ``text`` in order (names, mostly), generic words left out."""
    from ...city.names import GENERIC, normalise

    runs = (" ".join(w for w in normalise(r).split() if w not in GENERIC)
            for r in re.findall(r"(?<![\w-])[A-ZÅÄÖ][\w'-]*(?:\s+[A-ZÅÄÖ][\w'-]*)*", text))
    return [r for r in runs if r]


def verify(text: str, evidence: set[float], evidence_text: str = "", names: Any = None,
           facts: list[str] | None = None) -> tuple[list[str], list[str]]:
    """(kept sentences, dropped sentences with the reason) of a model rewrite.

    A sentence is dropped for process narration, for a number not in ``evidence``, for a data
    name (``names``: the region's NameIndex) absent from ``evidence_text``, for any other
    capitalised word (a place, a country, a brand) that ``evidence_text`` lacks, or, given the
    fact lines ``facts``, when it does not restate one of them (``aligned``)."""
    from ...city.names import normalise

    kept, dropped = [], []
    low_evidence = normalise(evidence_text)
    for s in sentences(text):
        if NARRATION.search(s):
            dropped.append(f"process narration: {s}")
            continue
        bad = [n for n in NUMBER.findall(s) if not supported(float(n.replace(",", ".")), evidence)]
        alien = [m.feature.name for _, _, m in (names.scan(s, fuzzy=False) if names is not None else [])
                 if normalise(m.matched) not in low_evidence]
        words = re.findall(r"(?<![.!?]\s)(?<!^)\b([A-ZÅÄÖ][\w'-]+)", s)
        alien += [w for w in words if normalise(w) not in low_evidence]
        if alien:
            dropped.append(f"name not in the observations ({', '.join(dict.fromkeys(alien[:3]))}): {s}")
        elif bad:
            dropped.append(f"unsupported number(s) {', '.join(bad)}: {s}")
        elif facts is not None and not aligned(s, facts):
            dropped.append(f"not a restatement of one fact: {s}")
        else:
            kept.append(s)
    return kept, dropped


def compose(draft: list[str], kept: list[str], limitations: Iterable[str]) -> str:
    """The facts, then at most two checked model sentences that are not already among them,
    then the limitations."""
    from ...city.names import normalise

    have = normalise(" ".join(draft))
    extra = [k for k in kept if normalise(k) not in have][:2]
    lines = draft + extra + [f"Limitation: {x}" for x in limitations]
    return "\n".join(dict.fromkeys(lines))


# ---------------------------------------------------------------------------- goal by goal
#: "charging-station", "land-use", "road": the lexicon's label of each task
TASK_LABEL = {t: lexicon.task_label(t) for t in lexicon.TASK_KEYS}


def _via(streets: list[str]) -> str:
    """" via A, B, C" — every street of a route up to ``ALL_NAMES``, then how many more (a cut list says so)."""
    return f" via {', '.join(streets[:ALL_NAMES])}{_more(min(len(streets), ALL_NAMES), len(streets), 'streets')}" \
        if streets else ""


def _held_line(obs: Any) -> list[str]:
    """The constraint a plan request asked for ("near X"), as stored and held: said, never silent."""
    if obs is None:
        return []
    r = obs.result
    what = "; ".join(c["summary"] for c in r.get("constraints", []))
    notes = "".join(f" ({n})" for n in r.get("notes") or [])
    return [f"Held to what the request said: {what}{notes} — stored in the workspace as an instruction; "
            f"{r.get('price_text', '')}."]


def _bounds_line(area: dict[str, Any] | None) -> str:
    """The area an answer counted over, in one sentence: its size and bounds (data CRS, metres)."""
    b = (area or {}).get("bounds")
    if not b:
        return ""
    how = "approximated from the place's location" if area.get("approximate") else "as the data maps it"
    w, h = area.get("size_m") or (b[2] - b[0], b[3] - b[1])   # the tool's figure: the reply derives none
    return (f"The area of {area.get('name')} counted is {how}: about {w / 1000:.1f} × "
            f"{h / 1000:.1f} km, x {b[0]:.0f}–{b[2]:.0f}, y {b[1]:.0f}–{b[3]:.0f} (metres, the data's CRS).")


def road_and_straight(road: float, straight: float, road_text: str | None = None) -> str:
    """"120 m by road (95 m straight)"; where two different places join the road network at the same
    point (a road distance of 0 m, a straight one above it) that is said, since "0 m by road" between
    two places apart would read as the same spot: "56.7 m apart in a straight line; both join the road
    network at the same point, so the road distance between them is 0 m"."""
    if road == 0 and straight > 0:
        return (f"{straight:g} m apart in a straight line; both join the road network at the same point, so the "
                "road distance between them is 0 m")
    return f"{road_text or f'{road:g} m'} by road ({straight:g} m straight)"


#: the route's line for two places joined at one point ("A and B are 20.3 m apart …, so the road distance
#: between them is 0 m."): groups the two names and what is said of them
JOINED_AT_ONE = re.compile(r"(.+?) and (.+?) are (\S+ m apart in a straight line; both join the road network at "
                           r"the same point, so the road distance between them is 0 m)\.")


def said_once(lines: list[str]) -> list[str]:
    """``lines`` without a route's line that only repeats what an earlier line said of the same two places
    ("the nearest café to Codento Oy is Café Metro …: 20.3 m apart …, 0 m" and then "Codento Oy and Café
    Metro are 20.3 m apart …, 0 m"): a sentence is said once."""
    out: list[str] = []
    for line in lines:
        m = JOINED_AT_ONE.fullmatch(line)
        if m and any(all(part in o for part in m.groups()) for o in out):
            continue
        out.append(line)
    return out


def _km(m: float) -> str:
    return f"{m:g} m" if m < 1000 else f"{m:g} m ({m / 1000:.2f} km)"


def _what(g: Any, n: int = 2) -> str:
    """The planner's word with the data category it was read as: 'pharmacy (clinic, amenity=pharmacy)';
    plural unless ``n`` is 1."""
    s = g.slots
    cat = s.get("category") or "feature"
    if s.get("word", "")[:1].isupper() and s["word"][1:].islower():   # "Restaurants inside …": capital of the sentence only
        s = {**s, "word": s["word"].lower()}
    if lexicon.is_finnish(s.get("word") or ""):   # no English ending on a Finnish noun: the category counts
        return f"{_number(cat, n)} ('{s['word']}'{', ' + s['tag'] if s.get('tag') else ''})"
    word = _number(s.get("word") or cat, n)
    if normalise_word(word).split(" ")[0] != cat or s.get("tag"):
        return f"{word} ({cat}{', ' + s['tag'] if s.get('tag') else ''})"
    return word


MASS_NOUNS = {"parking": "place", "fuel": "station", "green": "area", "recreation": "place", "charging": "point"}


def _number(word: str, n: int) -> str:
    """'pharmacy' / 'pharmacies' by ``n`` (last word only; words the planner wrote stay theirs otherwise)."""
    head, _, last = word.rpartition(" ")
    low = last.casefold()
    if low in MASS_NOUNS:   # "12 parking places", not "12 parking"
        return f"{word} {MASS_NOUNS[low]}{'' if n == 1 else 's'}"
    if n == 1 and low.endswith("ies"):
        last = last[:-3] + "y"
    elif n == 1 and low.endswith(("ches", "shes", "xes", "zes", "sses")):   # churches, boxes, glasses
        last = last[:-2]
    elif n == 1 and low.endswith("s") and not low.endswith(("ss", "us", "is")) and low != "gas":   # bus, campus stay
        last = last[:-1]
    elif n != 1 and low.endswith(("ch", "sh", "x", "z", "ss", "us")):
        last += "es"
    elif n != 1 and not low.endswith("s"):
        last = last[:-1] + "ies" if low.endswith("y") and low[-2:-1] not in "aeiou" else last + "s"
    return f"{head} {last}".strip()


def normalise_word(w: str) -> str:
    return re.sub(r"s$", "", w.casefold())


#: a list this long or shorter is given in full; a longer one says how many it leaves out
ALL_NAMES = 12


def _more(shown: int, total: int, noun: str = "") -> str:
    """" and 3 more" (or " and 3 more streets") when a list stops before its end, else ""."""
    rest = total - shown
    return f" and {rest} more{' ' + noun if noun else ''}" if rest > 0 else ""


def _names_list(feats: list[dict[str, Any]], total: int, with_street: bool = True, n: int = ALL_NAMES) -> str:
    """Names (with street or distance) of ``feats``; all of them when ``total`` ≤ ``ALL_NAMES``,
    else the first ``n`` and how many more."""
    shown = []
    for f in feats[: max(n, total if total <= ALL_NAMES else 0)]:
        label = _label(f)
        if with_street and f.get("street"):
            label += f" ({f['street']})"
        elif f.get("straight_distance_m") is not None:
            label += f" ({f['straight_distance_m']} m)"
        shown.append(label)
    return ", ".join(shown) + _more(len(shown), total)


def _site_line(site: dict[str, Any], street: str, coords: bool = False) -> str:
    """"<id> on <Street> — what it is"; its coordinates only when the request asks for them."""
    xy = f" at ({site['x']}, {site['y']})" if coords and "x" in site else ""
    desc = []
    if "site_kind" in site:
        chargers = " + ".join(f"{site[k]} {k[2:]}" for k in ("n_slow", "n_medium", "n_fast") if site.get(k))
        desc.append(f"{site['site_kind']} site, {chargers} chargers" if chargers else f"{site['site_kind']} site")
        if site.get("demand_in_radius") is not None:
            desc.append(f"serves {site['demand_in_radius']} demand in its radius")
    elif "highway" in site:
        desc.append(f"{site.get('kind', '')} {site['highway']} link, {site.get('length_m')} m"
                    + (", reconnects the network" if site.get("reconnects") else ""))
    elif "type" in site:
        desc.append(f"{site['type']} on block {site.get('face_id')}")
    return f"{site_label(site['id'], street)}{xy}" + (f" — {'; '.join(desc)}" if desc else "")


def _why_empty(built: dict[str, Any], budget: float) -> str:
    """Why a plan selects nothing, with the figure a planner needs to change it."""
    low = built.get("cheapest_cost")
    if low is None:
        return " The instance has no candidates."
    if low > budget:
        return f" No candidate fits within the budget: the cheapest costs {low:g} k€."
    return (f" No selection improves the score: each candidate's cost share outweighs what it adds "
            f"(the cheapest costs {low:g} k€).")


def plan_lines(g_task: str, budget: float, obs: list[Observation], idx: Any, show_sites: bool = True,
               coords: bool = False) -> list[str]:
    by = {o.tool: o for o in obs if o.ok}
    held = _held_line(by.get("add_constraint"))
    label = TASK_LABEL.get(g_task, g_task)
    if "build_instance" not in by:
        return []
    b = by["build_instance"].result
    out = [f"{label.capitalize()} plan for {b['region']} with a budget of {budget:g} k€ "
           f"({b['candidates']} candidate sites, at most {b['step_limit']} selections)."] + held
    ev = (by.get("evaluate_plan") or by.get("solve_plan"))
    if ev is None:
        return out
    r = ev.result
    state = "valid" if r["valid"] else "invalid (" + "; ".join(r["errors"][:2]) + ")"
    out.append(f"The plan selects {r['selected']} candidate{'' if r['selected'] == 1 else 's'} and is {state}, "
               f"evaluator score {r['score']}"
               + (f", cost ratio {r['cost_ratio']}" if r.get("cost_ratio") is not None else "") + "."
               + (_why_empty(b, budget) if not r["selected"] else ""))
    sites = (by.get("solve_plan").result if by.get("solve_plan") else r).get("sites") or r.get("sites") or []
    if show_sites and sites:
        lines = [_site_line(st, idx.street_near(st["x"], st["y"]) if idx is not None and "x" in st else "", coords)
                 for st in sites[:ALL_NAMES]]
        out.append("Sites: " + "; ".join(lines) + _more(len(lines), len(sites), "sites") + ". They are on the map as the layer "
                   f"'plan sites {b['workspace']}'.")
    return out


def goal_facts(task: Any, obs_of: Any, idx: Any, cond: tuple[float | None, str], outcome: bool | None) -> list[str]:
    """The answer's fact lines, goal by goal, from the observations of each goal (each intent's
    ``facts``: ``intents``, which write with this module's helpers, hence imported here)."""
    from .intents import INTENTS, Facts

    # "Where is Karhulan terveysasema, and …": a name not in the data is said even where its clause
    # read no goal (never answered by silence while the other parts run)
    said = {m for g in task.goals for m in g.absent}
    out: list[str] = [m for m in task.absent if m not in said]
    for i, g in enumerate(task.goals):
        if g.absent:
            out.extend(g.absent)
            continue
        if g.branch in ("then", "else") and (outcome is None or outcome != (g.branch == "then")):
            continue
        obs = obs_of(i)
        good = [o for o in obs if o.ok]
        if not good:
            out.extend(_condition_line(task, g, cond, outcome))   # a route no road makes still decides
            continue
        intent = INTENTS.get(g.intent)
        if intent is not None:
            out.extend(intent.facts(Facts(g, good[-1].result, good, obs, task.region, idx)))
        out.extend(_condition_line(task, g, cond, outcome))
    return said_once(out) + _more_line(task, obs_of) + list(task.notes)


#: a request that asks which of the areas has more (or fewer): "whether Valas or Kaniini has more restaurants"
_WHICH_MORE = re.compile(r"\b(?:more|most|fewer|less|enemmän|vähemmän|eniten)\b", re.I)


def _more_line(task: Any, obs_of: Any) -> list[str]:
    """"Valas has more restaurants than Kaniini (7 vs 1)": for counts of one kind in each of several areas
    (rule count.each-area) where the request asks which has more, the comparison of the counts the tool
    returned, each said; nothing when a count is missing."""
    if "count.each-area" not in getattr(task, "trace", []) or not _WHICH_MORE.search(task.request):
        return []
    counts = []
    for i, g in enumerate(task.goals):
        if g.intent != "count" or g.branch or not g.slots.get("area"):
            continue
        good = [o for o in obs_of(i) if o.ok and isinstance(o.result, dict) and "count" in o.result]
        if not good:
            return []
        counts.append((g.slots["area"], int(good[-1].result["count"]), g.slots.get("word") or "of them"))
    if len(counts) < 2 or len({w for _, _, w in counts}) != 1:
        return []
    said = ", ".join(f"{a}: {n}" for a, n, _ in counts)
    word = counts[0][2]
    word = f"'{word}'" if lexicon.is_finnish(word) else word   # the planner's Finnish word, quoted in English
    top = max(n for _, n, _ in counts)
    first = [a for a, n, _ in counts if n == top]
    if len(first) > 1:
        return [f"{' and '.join(first)} have the same number of {word} ({said})."]
    return [f"{first[0]} has {'more' if len(counts) == 2 else 'the most'} {word} ({said})."]


def _condition_line(task: Any, g: Any, cond: tuple[float | None, str], outcome: bool | None) -> list[str]:
    """The tested value and the branch it selects (after the condition's own facts)."""
    if g.branch != "if" or cond[0] is None or not task.test:
        return []
    value, kind = cond
    shown = ("unreachable (no road connects them)" if kind == "distance_m" else "none") \
        if value == float("inf") else f"{value:g}"
    unit = " m" if kind == "distance_m" and value != float("inf") else ""
    return [f"Condition: the {kind.replace('_m', '')} is {shown}{unit}, which is "
            f"{'' if outcome else 'not '}{task.test['op']} {task.test['value']:g}{unit}; so "
            f"{'the first' if outcome else 'the other'} branch follows"
            + ("" if outcome or any(x.branch == "else" for x in task.goals) else " (nothing to do)") + "."]


