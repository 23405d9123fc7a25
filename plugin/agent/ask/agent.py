"""The ask agent: cognition → clarify, or ReAct over the tool registry → evidence-aligned synthesis.

ReAct core: each step (with ``model_steps``; by default the policy alone steps, see ``react``)
the model sees the structured task, the tools, the observations so far and the policy's
suggested next call (the call prerequisites of the task's goals, filled with
upstream values), and answers ``{"tool", "args"}``. A valid proposal is executed (an extra
call beyond the suggestion is an augmentation, at most ``MAX_EXTRA``); an invalid one, or a
commit while required calls are pending, falls back to the suggestion, recorded as such —
so a small model cannot derail the workflow, and a stronger one steers it.

Runtime rules (docs/reference.md#urbanagent-and-urbaneval): error observations for unknown tools, bad arguments and
exceptions; a successful call's signature is cached and an exact repeat is rejected (failed
calls may be retried); after ``SWITCH_AFTER`` consecutive failures of one tool the model is
advised to switch tools or report the subtask unavailable; budget ``MAX_CALLS`` model calls or
``MAX_SECONDS``; with ≤ ``DRAFT_CALLS`` calls or ≤ ``DRAFT_SECONDS`` left, tools are disabled
and the answer is drafted from the observations.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from ...city.names import NameIndex
from ..tools import Observation, Registry, dumps
from . import synthesis
from .cognition import READING_SCHEMA, Goal, Task, extract, merge_model, model_prompt
from .intents import INTENTS, Calls, Step

MAX_CALLS, MAX_SECONDS = 25, 600.0
DRAFT_CALLS, DRAFT_SECONDS = 2, 90.0
SWITCH_AFTER = 8
MAX_EXTRA = 3
SYNTHESIS_FACTS, SYNTHESIS_CHARS, SYNTHESIS_TOKENS = 3, 240, 48   # the model sentence's prompt and length


def signature(tool: str, args: dict[str, Any]) -> str:
    return tool + json.dumps(args, sort_keys=True, default=str)


def index_of(registry: Registry) -> Callable[[str], NameIndex]:
    """The name resolver of each region of the registry (the tools resolve with the same one)."""
    from ..tools.places import region_index

    return lambda region: region_index(registry.ctx, region).names


class Run:
    """One request's trace, budget, cache and failure counters."""

    def __init__(self, registry: Registry, backend: Any, *, max_calls: int = MAX_CALLS,
                 max_seconds: float = MAX_SECONDS, max_tokens: int = 160, seed: int = 0, model_steps: bool = False,
                 model_sentence: bool = False):
        self.reg, self.backend = registry, backend
        self.model_steps, self.model_sentence = model_steps, model_sentence
        self.max_calls, self.max_seconds, self.max_tokens, self.seed = max_calls, max_seconds, max_tokens, seed
        self.t0 = time.perf_counter()
        self.trace: list[dict[str, Any]] = []
        self.model_calls: list[dict[str, Any]] = []
        self.observations: list[Observation] = []
        self.cache: dict[str, Observation] = {}
        self.fails: dict[str, int] = {}

    # ---------------------------------------------------------------- budget
    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def tools_disabled(self) -> bool:
        return (self.max_calls - len(self.model_calls) <= DRAFT_CALLS
                or self.max_seconds - self.elapsed() <= DRAFT_SECONDS)

    # ---------------------------------------------------------------- model
    def model(self, purpose: str, messages: list[dict], schema: dict | None = None,
              max_tokens: int | None = None) -> Any:
        """Parsed JSON (schema) or text; None when the model failed, answered badly or no budget.
        A text cut off at ``max_tokens`` loses its unfinished last sentence."""
        if self.backend is None or len(self.model_calls) >= self.max_calls:
            return None
        try:
            res = self.backend.chat(messages, schema=schema, max_tokens=min(self.max_tokens, max_tokens or self.max_tokens),
                                    temperature=0.0,
                                    seed=self.seed + len(self.model_calls))
        except Exception as e:  # noqa: BLE001 - a dead model degrades to the deterministic path
            self.model_calls.append({"purpose": purpose, "error": f"{type(e).__name__}: {e}", "prompt_tokens": 0,
                                     "completion_tokens": 0, "seconds": 0.0})
            return None
        rec = {"purpose": purpose, "prompt_tokens": res.prompt_tokens, "completion_tokens": res.completion_tokens,
               "seconds": round(res.seconds, 3), "finish_reason": res.finish_reason, "text": res.text[:2000]}
        self.model_calls.append(rec)
        if schema is None:
            if res.finish_reason == "length":
                return " ".join(synthesis.sentences(res.text)[:-1])
            return res.text
        try:
            return json.loads(res.text)
        except json.JSONDecodeError:
            rec["error"] = "invalid JSON"
            return None

    # ---------------------------------------------------------------- tools
    def call(self, tool: str, args: dict[str, Any], chosen_by: str) -> Observation:
        sig = signature(tool, args)
        if sig in self.cache:
            obs = Observation(tool, "runtime", args, "failed", None,
                              "exact repeat of a successful call: use its result", 0.0)
        else:
            obs = self.reg.call(tool, args)
            if obs.ok:
                self.cache[sig] = obs
        self.fails[tool] = 0 if obs.ok else self.fails.get(tool, 0) + 1
        self.observations.append(obs)
        self.trace.append({"step": "tool", "chosen_by": chosen_by, **obs.to_json()})
        return obs

    def advice(self) -> list[str]:
        return [f"{t} failed {n} times in a row: switch tools or report this subtask as unavailable."
                for t, n in self.fails.items() if n >= SWITCH_AFTER]

    # ---------------------------------------------------------------- record
    def tokens(self) -> dict[str, int]:
        p = sum(m["prompt_tokens"] for m in self.model_calls)
        c = sum(m["completion_tokens"] for m in self.model_calls)
        return {"prompt": p, "completion": c, "total": p + c}


# ------------------------------------------------------------------------ the policy
def _done(run: Run, tool: str, args: dict[str, Any]) -> Observation | None:
    """The latest observation of exactly this call (ok or failed), if any."""
    sig = signature(tool, args)
    return next((o for o in reversed(run.observations) if o.tool == tool and signature(o.tool, o.params) == sig
                 and o.server != "runtime"), None)


def goal_observations(run: Run, task: Task, i: int) -> list[Observation]:
    """The observations of goal ``i``'s calls (in order), as far as they ran."""
    out = []
    calls, _ = _calls(task.goals[i], task.region, run, task, i)
    for tool, args in calls:
        obs = _done(run, tool, args)
        if obs is None:
            break
        out.append(obs)
    return out


def _ref(run: Run, task: Task, value: Any) -> tuple[Any, str | None]:
    """``$goal:N`` → the id of what goal N found (its nearest facility, its route's end, the
    first listed feature); other values unchanged. Second: why it could not be resolved."""
    if not (isinstance(value, str) and value.startswith("$goal:")):
        return value, None
    goal, _, nth = value[len("$goal:"):].partition("#")
    n = int(goal)
    obs = [o for o in goal_observations(run, task, n) if o.ok]
    if nth:   # "between the two": the nth of exactly two places the goal found
        listed = next((o.result.get("features") or [] for o in obs if o.tool in ("find_features", "within_distance")), [])
        if len(listed) != 2:
            return None, f"'the two' are not two places: that search found {len(listed)}"
        return listed[int(nth)]["id"], None
    for o in obs:
        r = o.result
        if o.tool == "nearest_facility" and r.get("nearest"):
            return r["nearest"]["id"], None
        if o.tool == "route":
            return r["destination"]["id"], None
        if o.tool in ("find_features", "within_distance") and r.get("features"):
            return r["features"][0]["id"], None
    return None, "it depends on an earlier part that found nothing"


def _calls(goal: Goal, region: str | None, run: Run, task: Task, i: int) -> Calls:
    """The calls a goal needs given what ran so far, and a limitation when it cannot proceed
    (its intent's ``calls``; an intent without a class, as before, calls the plan tools)."""
    if goal.absent:
        return [], None   # answered with "X is not in the data"
    if goal.branch in ("then", "else"):
        outcome = condition_outcome(run, task)
        if outcome is None or (outcome != (goal.branch == "then")):
            return [], None
    step = Step(goal.slots, region, lambda tool, args: _done(run, tool, args), lambda v: _ref(run, task, v))
    return INTENTS.get(goal.intent, INTENTS["plan"]).calls(step)


def condition_value(run: Run, task: Task) -> tuple[float | None, str]:
    """The value a conditional request tests (count, distance or score) and what it is."""
    i = next((k for k, g in enumerate(task.goals) if g.branch == "if"), None)
    if i is None:
        return None, ""
    intent = INTENTS.get(task.goals[i].intent)
    return intent.tested(goal_observations(run, task, i)) if intent is not None else (None, "")


def condition_outcome(run: Run, task: Task) -> bool | None:
    value, _ = condition_value(run, task)
    if value is None or task.test is None:
        return None
    op, ref = task.test["op"], float(task.test["value"])
    return {">": value > ref, ">=": value >= ref, "<": value < ref, "<=": value <= ref}[op]


def next_call(run: Run, task: Task) -> tuple[tuple[str, dict] | None, list[str]]:
    """The first required call not yet run, and the limitations met so far."""
    limits: list[str] = []
    for i, goal in enumerate(task.goals):
        calls, limit = _calls(goal, task.region, run, task, i)
        if limit:
            limits.append(limit)
        for tool, args in calls:
            obs = _done(run, tool, args)
            if obs is None:
                return (tool, args), limits
            if not obs.ok:
                limits.append(f"{tool}: {obs.error}")
                if not INTENTS.get(goal.intent, INTENTS["plan"]).independent_calls:
                    break  # later calls of this goal depend on this one (a comparison's do not)
    return None, limits


STEP_SCHEMA_BASE = {"type": "object", "properties": {"tool": {"type": "string"}, "args": {"type": "object"}},
                    "required": ["tool", "args"]}


def _signature_line(spec: dict[str, Any]) -> str:
    props, req = spec["input_schema"]["properties"], spec["input_schema"].get("required", [])
    return f"{spec['name']}({', '.join(req + [p + '?' for p in props if p not in req])})"


def _step_messages(run: Run, task: Task, suggestion: tuple[str, dict]) -> list[dict[str, str]]:
    # compact on purpose: the default model is small and prompt tokens dominate its latency
    tools = "; ".join(_signature_line(t) for t in run.reg.specs())
    seen = "\n".join(" ".join(synthesis.fact_lines(o)) if o.ok else f"{o.tool} failed: {o.error}"
                     for o in run.observations)
    user = (f"Task: {task.intent} in {task.region}; {json.dumps(task.entities, ensure_ascii=False)}\n"
            f"Observations:\n{seen or '(none)'}\n" + "".join(a + "\n" for a in run.advice())
            + f"Suggested next call: {json.dumps({'tool': suggestion[0], 'args': suggestion[1]}, ensure_ascii=False)}\n"
            'Reply with JSON {"tool": name, "args": {...}}, or {"tool": "commit", "args": {}} when done.')
    return [{"role": "system", "content": "You are an urban planning assistant that calls tools: " + tools},
            {"role": "user", "content": user}]


def react(run: Run, task: Task) -> list[str]:
    """Run the loop until the policy has nothing pending or the budget says draft; return limitations."""
    schema = json.loads(json.dumps(STEP_SCHEMA_BASE))
    schema["properties"]["tool"]["enum"] = [*run.reg.tools, "commit"]
    extra = 0
    while True:
        suggestion, limits = next_call(run, task)
        if suggestion is None:
            return limits
        if run.tools_disabled():
            run.trace.append({"step": "budget", "note": "tools disabled: drafting from the observations"})
            return limits + ["the call budget ran out before every step was done"]
        # The policy's suggestion is fully determined by the checked reading, so by default the
        # model is not asked to repeat it (each step would cost a model call: seconds on a
        # small CPU); with ``model_steps`` a stronger model may steer or augment each step.
        prop = run.model("step", _step_messages(run, task, suggestion), schema) if run.model_steps else None
        tool, args = (prop.get("tool"), prop.get("args")) if isinstance(prop, dict) else (None, None)
        valid = (tool in run.reg.tools and isinstance(args, dict)
                 and signature(tool, args) not in run.cache and _schema_ok(run, tool, args))
        if valid and signature(tool, args) == signature(*suggestion):
            run.call(tool, args, "model")
        elif valid and extra < MAX_EXTRA:
            extra += 1
            run.call(tool, args, "model (augmentation)")
        elif not run.model_steps:
            run.call(*suggestion, "policy")
        else:
            why = "commit refused: required calls pending" if tool == "commit" else "proposal not usable"
            run.trace.append({"step": "fallback", "note": why, "proposal": prop})
            run.call(*suggestion, "policy")


def _schema_ok(run: Run, tool: str, args: dict) -> bool:
    from ..tools.registry import schema_error

    return schema_error(run.reg.tools[tool].schema, args) is None


# ------------------------------------------------------------------------ the whole request
#: what a request the rules cannot read is told to say instead (one phrasing per kind of question)
SAY_IT_AS = ("'nearest pharmacy to Kiasma', 'cafés within 300 m of Oodi', 'route from Kiasma to Oodi' or "
             "'plan chargers in Kotka with 300 k€'")


def clarification(task: Task) -> str:
    """The reply when the request cannot be acted on: what could not be read (with phrasings that
    can), names not in the data, the inputs missing, and the read-backs."""
    parts = list(task.absent)
    if not task.goals and not task.absent and not task.entities.get("budgets_keur"):
        # money read ("Do something useful with 800 tonnia") is a plan whose kind is missing: ask for it
        parts.append(f"I could not read '{task.request}' — say it as, e.g., {SAY_IT_AS}.")
    if task.missing:
        parts.append("Before I act I need " + "; ".join(task.missing) + ".")
    return " ".join(parts + task.notes)


def answer_request(request: str, registry: Registry, backend: Any, region: str | None = None,
                   **run_options: Any) -> dict[str, Any]:
    """Cognition → clarification, or ReAct → synthesis. Returns the full JSON record."""
    run = Run(registry, backend, **run_options)
    task = extract(request, index_of(registry), tuple(registry.ctx.regions), region)
    run.trace.append({"step": "cognition", "source": "rules", "task": task.to_json()})
    run.trace.append({"step": "rules", "fired": list(task.trace)})   # the reading rules' ids (rules.RULES)
    if not task.goals and not task.absent:
        # the model's reading is adopted only where the rules found no goal (check_reading), so
        # only then is it asked: a complete rules reading costs no model call (seconds on a CPU)
        reply = run.model("cognition", model_prompt(request, task), READING_SCHEMA)
        if isinstance(reply, dict):
            merge_model(task, reply)
            run.trace.append({"step": "cognition", "source": "model", "reply": reply})
    runnable = [g for g in task.goals if not g.absent]
    if task.missing or not runnable:
        out = {"clarification": clarification(task)}
    else:
        limits = react(run, task) + run.advice()
        out = synthesize(run, task, request, limits)
    calls = [o.to_json() for o in run.observations]
    return {"request": request, "region": task.region, "task": task.to_json(), **out,
            "tool_calls": calls, "model_calls": len(run.model_calls), "tokens": run.tokens(),
            "seconds": round(run.elapsed(), 3), "layers": layers(run.observations, registry),
            "trace": run.trace + [{"step": "model", **m} for m in run.model_calls]}


def synthesize(run: Run, task: Task, request: str, limits: list[str]) -> dict[str, Any]:
    """Facts first (written from the tool results, goal by goal), then a model sentence only
    when it passes the number, name and entity checks; limitations last."""
    from ..tools.places import region_index

    idx = region_index(run.reg.ctx, task.region) if task.region else None
    draft = synthesis.goal_facts(task, lambda i: goal_observations(run, task, i), idx,
                                 condition_value(run, task), condition_outcome(run, task))
    limits = list(dict.fromkeys(limits))
    good = [o for o in run.observations if o.ok]
    if not draft:
        return {"answer": "\n".join(["No tool returned usable data for this request."]
                                     + [f"Limitation: {x}" for x in limits]), "limitations": limits,
                "unsupported": [], "draft": []}
    evidence = synthesis.numbers_in([o.result for o in good]) | synthesis.numbers_in(request) \
        | synthesis.numbers_in(draft)
    # The model's sentence may only restate a fact (verify), so it adds wording, never content,
    # for seconds of CPU time; the small default model also restated relations wrongly in ways
    # a word check lets through ("the closest … is <the farther one>"), so it is asked only with
    # ``model_sentence`` (a stronger model), for one sentence from the first facts.
    text = None if not run.model_sentence else run.model("synthesis", [
        {"role": "system", "content": "Answer the planner's request in one sentence using only the facts given. "
                                      "Copy numbers and names exactly."},
        {"role": "user", "content": f"Request: {request}\nFacts:\n"
                                    + "\n".join(line[:SYNTHESIS_CHARS] for line in draft[:SYNTHESIS_FACTS])}],
        max_tokens=SYNTHESIS_TOKENS)
    kept, dropped = synthesis.verify(text or "", evidence, dumps([o.result for o in good]) + request + " ".join(draft),
                                     idx.names if idx is not None else None, draft)
    run.trace.append({"step": "synthesis", "draft": draft, "kept": kept, "dropped": dropped})
    return {"answer": synthesis.compose(draft, kept, limits), "limitations": limits, "unsupported": dropped,
            "draft": draft}


def layers(observations: list[Observation], registry: Registry) -> list[dict[str, Any]]:
    """GeoJSON layers (in the region CRS) from route lines, listed features and plan sites, for a map."""
    out = []
    for o in observations:
        if not o.ok:
            continue
        r = o.result
        if o.tool == "route":
            out.append({"name": f"route {synthesis._label(r['origin'])} → {synthesis._label(r['destination'])}",
                        "crs": r["crs"], "geojson": {"type": "FeatureCollection", "features": [
                            {"type": "Feature", "geometry": r["geometry"],
                             "properties": {"network_distance_m": r["network_distance_m"]}}]}})
        feats = r.get("features") or ([r["nearest"]] if o.tool == "nearest_facility" and r.get("nearest") else [])
        if feats and o.tool in ("find_features", "within_distance", "nearest_facility"):
            out.append({"name": f"{o.tool} {o.params.get('category') or o.params.get('name') or ''}".strip(),
                        "crs": _crs(registry, o.params["region"]), "geojson": _points(feats, ("id", "name", "category"))})
        if o.tool == "solve_plan" and r.get("sites") and all("x" in p for p in r["sites"]):
            region = _workspace_region(observations, o.params["workspace"])
            if region:
                out.append({"name": f"plan sites {o.params['workspace']}", "crs": _crs(registry, region),
                            "geojson": _points(r["sites"], tuple(k for k in r["sites"][0] if k not in ("x", "y")))})
    return out


def _points(feats: list[dict[str, Any]], keys: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [f["x"], f["y"]]},
         "properties": {k: f.get(k) for k in keys}} for f in feats]}


def _workspace_region(observations: list[Observation], ws: str) -> str | None:
    return next((o.params["region"] for o in observations if o.tool == "build_instance" and o.ok
                 and o.result["workspace"] == ws), None)


def _crs(registry: Registry, region: str) -> str:
    from ..tools.places import region_index

    return region_index(registry.ctx, region).city.crs
