"""One participatory revision, end to end, and its files.

(vacant layer: the planner's initial plan under the quotas) → per community, in order: N
fishbowl rounds → the planner revises from the last round summary's heard requests, within
the Program (quotas, site rules), at most K parcel changes, Service and Ecology kept → the next
community sees the revised plan. Outputs (``write_outputs``): metrics.json (before / after,
speakers vs non-speakers vs a fresh population of the same region, baselines, the program,
timings, LLM usage), parcels.gpkg (layers ``parcels`` with the revised land use and
``residents`` with needs and satisfaction), changes.csv (every change, the requests it
answers and its score effect), transcript.jsonl (one line per round and per revision).
"""
from __future__ import annotations

import csv
import io
import json
import os
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import geopandas as gpd
import numpy as np

from ..errors import InputError
from ..tasks.land import TYPES
from ..util.io import atomic_write_json, atomic_write_text

from .baselines import baseline_metrics
from .fishbowl import Opinion, RulePersona, Summary, block_view, discuss, split_communities
from .metrics import plan_metrics, voice_metrics
from .population import FRESH_SEED_OFFSET, MISSING_BOOST, Population, ProfileTable, sample_population
from .program import Program, make_program, sibling_objectives
from .region import Region
from .revision import MAX_CHANGES, Revision, check, initial_plan, objective, replan, trace_changes

PLANNERS = ("solver", "llm")
#: seconds per LLM call measured with the shipped 135M model on 2 cores (1 thread, 96 tokens)
LLM_CALL_SECONDS = 4.6


#: the largest run accepted (docs/limits.md): above these a run is refused in one line instead of
#: growing past memory (--residents 10,000,000 reached 3.8 GB, then a traceback) or running on
#: for hours (--rounds 1,000,000)
LIMITS = {"residents": 200_000, "rounds": 100, "speakers": 5_000, "communities": 1_000}


@dataclass
class Config:
    residents: int = 1000
    rounds: int = 3
    speakers: int = 50
    communities: int = 4
    persona: str = "rules"
    planner: str = "solver"
    seed: int = 0
    baselines: bool = False
    profiles: str | None = None
    need: dict[str, int] | None = None        # type quotas (else the objectives file / current plan)
    objectives: str | None = None             # DRL objectives YAML (counts, min_area)
    max_changes: int = MAX_CHANGES            # K: parcel changes per community revision
    ecology_loss: float = 0.0                 # Ecology the planner may give up (0: none)
    quota_deviation: int = 0                  # allowed distance from the quota band
    missing_boost: float = MISSING_BOOST      # need bias toward the plan's gaps (1.0: none)

    def check(self) -> None:
        for name in ("residents", "rounds", "speakers", "communities"):
            if getattr(self, name) < 1:
                raise InputError(f"--{name} must be at least 1, got {getattr(self, name)}")
            if getattr(self, name) > LIMITS[name]:   # memory and time grow with each: refuse, don't run on
                raise InputError(f"--{name} is at most {LIMITS[name]:,}, got {getattr(self, name):,}")
        if self.residents < self.speakers:
            raise InputError(f"fewer residents ({self.residents}) than speakers per round ({self.speakers})")
        if self.persona not in ("rules", "llm"):
            raise InputError(f"unknown persona '{self.persona}' (choose rules, llm)")
        if self.planner not in PLANNERS:
            raise InputError(f"unknown planner '{self.planner}' (choose {', '.join(PLANNERS)})")
        if self.max_changes < 0 or self.quota_deviation < 0 or not 0 <= self.ecology_loss <= 1:
            raise InputError("--max-changes and --quota-deviation must be ≥ 0 and --ecology-loss in [0, 1]")
        if not self.missing_boost > 0:
            raise InputError(f"--missing-boost must be positive, got {self.missing_boost}")


def estimate_llm_seconds(cfg: Config, per_call: float = LLM_CALL_SECONDS) -> float:
    """How long the LLM part of a run takes: one call per speaker and per round summary (when
    the persona is the LLM) and one per community revision (when the planner is)."""
    calls = 0
    if cfg.persona == "llm":
        calls += cfg.communities * cfg.rounds * (cfg.speakers + 1)
    if cfg.planner == "llm":
        calls += cfg.communities
    return calls * per_call


@dataclass
class Result:
    region: Region
    pop: Population
    community: np.ndarray
    plan_before: np.ndarray
    plan_after: np.ndarray
    metrics: dict
    events: list[dict] = field(default_factory=list)
    changes: list[dict] = field(default_factory=list)


def _llm_revision(llm_planner, region: Region, plan: np.ndarray, parcels: np.ndarray, summary: Summary,
                  program: Program, cfg: Config, service0: float) -> Revision:
    """The LLM's proposed changes, each kept only while the plan still passes every rule."""
    proposed, note = llm_planner.revise(region, plan, parcels, summary, cfg.max_changes)
    new, dropped = plan.copy(), 0
    for j in np.flatnonzero(proposed != plan):
        trial = new.copy()
        trial[j] = proposed[j]
        if check(region, plan, trial, program, parcels, cfg.max_changes, service0, cfg.ecology_loss):
            dropped += 1
        else:
            new = trial
    view = block_view(region)
    before, after = objective(region, plan, plan, summary.requests, view), objective(region, new, plan,
                                                                                     summary.requests, view)
    return Revision(new, f"{note}; {dropped} change(s) breaking a rule dropped", (before[0], after[0]),
                    (before[1], after[1]), trace_changes(region, plan, new, summary.requests, view))


def run(region: Region, cfg: Config, persona: RulePersona | None = None,
        on_event: Callable[[dict], None] | None = None, cancel: Callable[[], bool] | None = None,
        llm_planner=None, parcels_path: str | Path | None = None) -> Result:
    """Run the whole participatory revision; ``on_event`` gets every transcript record."""
    cfg.check()
    t0 = time.perf_counter()
    persona = persona or RulePersona()
    events: list[dict] = []

    def emit(rec: dict) -> None:
        events.append(rec)
        if on_event is not None:
            on_event(rec)

    program = make_program(region, cfg.need, cfg.objectives or sibling_objectives(parcels_path), cfg.quota_deviation)
    plan0 = region.plan0
    if all((plan0[region.plannable] == "feasible")):
        init = initial_plan(region, program, cancel)
        if init.status != "optimal" and not init.changes:
            raise InputError(f"no initial plan meets the quotas on this layer ({init.status})")
        plan0 = init.plan
        emit({"event": "initial_plan", "reason": "the layer has only residential and feasible parcels: the planner "
              "placed the quotas first", "changes": init.changes})
    pop = sample_population(region, cfg.residents, cfg.seed, ProfileTable.load(cfg.profiles), cfg.missing_boost)
    community = split_communities(region, cfg.communities, cfg.seed)
    plan = plan0.copy()
    service0 = region.service(plan0)
    timings = {"residents": round(time.perf_counter() - t0, 3), "discussion": 0.0, "planner": 0.0}
    spoke: list[int] = []
    changes: list[dict] = []
    heard = 0
    for c in range(cfg.communities):
        t1 = time.perf_counter()

        def on_round(s: Summary, ops: list[Opinion]) -> None:
            emit({"event": "round", "community": c, "round": s.round, "summary": s.to_json(),
                  "opinions": [o.__dict__ for o in ops]})

        disc = discuss(region, pop, plan, community, c, cfg.rounds, cfg.speakers, persona, cfg.seed, on_round, cancel)
        t2 = time.perf_counter()
        timings["discussion"] += t2 - t1
        spoke.extend(disc.speakers.tolist())
        parcels = community == c
        if not disc.summaries or not (parcels & region.plannable).any():
            emit({"event": "revision", "community": c, "accepted": False, "reason": "no participants or parcels",
                  "changes": []})
            continue
        summary = disc.summaries[-1]   # carries every round's requests forward
        heard += len(summary.requests)
        if cfg.planner == "llm" and llm_planner is not None:
            rev = _llm_revision(llm_planner, region, plan, parcels, summary, program, cfg, service0)
        else:
            rev = replan(region, plan, parcels, program, summary.requests, cfg.max_changes, service0,
                         cfg.ecology_loss, cancel=cancel)
        accepted = bool(rev.changes)
        emit({"event": "revision", "community": c, "accepted": accepted, "reason": rev.status,
              "changes": rev.changes, "heard_served": [round(rev.served[0], 4), round(rev.served[1], 4)],
              "objective": [round(rev.objective[0], 4), round(rev.objective[1], 4)]})
        if accepted:
            plan = rev.plan
            changes.extend({"community": c, **ch} for ch in rev.changes)
        timings["planner"] += time.perf_counter() - t2
    fresh = sample_population(region, cfg.residents, cfg.seed + FRESH_SEED_OFFSET, ProfileTable.load(cfg.profiles),
                              cfg.missing_boost)
    metrics: dict = {"before": plan_metrics(region, pop, plan0), "after": plan_metrics(region, pop, plan)}
    metrics["by_voice"] = {"before": voice_metrics(pop, plan0, np.unique(spoke)),
                           "after": voice_metrics(pop, plan, np.unique(spoke))}
    metrics["fresh_population"] = {"before": plan_metrics(region, fresh, plan0), "after": plan_metrics(region, fresh, plan)}
    timings["total"] = round(time.perf_counter() - t0, 3)
    if cfg.baselines:
        t3 = time.perf_counter()
        metrics["baselines"] = baseline_metrics(region, pop, program, cfg.seed)
        timings["baselines"] = round(time.perf_counter() - t3, 3)
    metrics["timings"] = {k: round(v, 3) for k, v in timings.items()}
    metrics["config"] = cfg.__dict__ | {"region": region.name}
    metrics["program"] = program.to_json()
    metrics["residents"] = {"n": pop.n, "vulnerable": int(pop.vulnerable.sum()), "speakers": len(set(spoke)),
                            "heard_requests": heard}
    metrics["changed_parcels"] = int((plan != plan0).sum())
    metrics["green_area_m2"] = {"before": round(float(region.area[np.isin(plan0, ("green_l", "green_s"))].sum()), 1),
                                "after": round(float(region.area[np.isin(plan, ("green_l", "green_s"))].sum()), 1)}
    return Result(region, pop, community, plan0, plan, metrics, events, changes)


def run_with_voice(region: Region, cfg: Config, model: str | None = "default", endpoint: str | None = None,
                   threads: int | None = None, max_tokens: int = 96,
                   on_event: Callable[[dict], None] | None = None,
                   cancel: Callable[[], bool] | None = None, parcels_path: str | Path | None = None) -> Result:
    """``run`` with the LLM voice (``model``: a GGUF path or "default", or ``endpoint``) opened
    and closed around it when the persona or the planner is ``llm``; its token and fallback
    counts land in ``metrics["llm"]``."""
    cfg.check()
    if "llm" not in (cfg.persona, cfg.planner):
        return run(region, cfg, on_event=on_event, cancel=cancel, parcels_path=parcels_path)
    from .llm import LlmVoice

    voice = LlmVoice.open(model, endpoint, threads=threads, max_tokens=max_tokens, seed=cfg.seed)
    try:
        res = run(region, cfg, persona=voice if cfg.persona == "llm" else None, on_event=on_event, cancel=cancel,
                  llm_planner=voice, parcels_path=parcels_path)
    finally:
        voice.close()
    res.metrics["llm"] = voice.usage()
    return res


def result_layers(res: Result) -> dict[str, gpd.GeoDataFrame]:
    """``parcels`` (landuse_before, landuse, changed, community, satisfaction of its
    residents) and ``residents`` (points: profile, needs, satisfaction before / after)."""
    region, pop = res.region, res.pop
    sat0, sat1 = pop.satisfaction(res.plan_before), pop.satisfaction(res.plan_after)
    n_home = np.bincount(pop.home, minlength=len(res.plan_after))
    mean_sat = np.bincount(pop.home, weights=sat1, minlength=len(res.plan_after)) / np.maximum(n_home, 1)
    parcels = gpd.GeoDataFrame({
        "id": region.ids, "landuse_before": res.plan_before.astype(str), "landuse": res.plan_after.astype(str),
        "changed": res.plan_before != res.plan_after, "community": res.community.astype(int),
        "residents": n_home.astype(int), "satisfaction": np.where(n_home > 0, mean_sat.round(4), np.nan),
    }, geometry=region.parcels.geometry.to_numpy(), crs=region.parcels.crs)
    needs = [";".join(t for t, n in zip(TYPES, row) if n) for row in pop.needs]
    residents = gpd.GeoDataFrame({
        "resident": np.arange(pop.n), "home": region.ids[pop.home],
        **{k: pop.profiles[k].astype(str).to_numpy() for k in ("gender", "age", "education", "household", "groups")},
        "vulnerable": pop.vulnerable, "needs": needs,
        "satisfaction_before": sat0.round(4), "satisfaction": sat1.round(4),
    }, geometry=gpd.points_from_xy(pop.xy[:, 0], pop.xy[:, 1]), crs=region.parcels.crs)
    return {"parcels": parcels, "residents": residents}


def transcript_text(events: list[dict]) -> str:
    """The transcript as JSON lines (one round or revision per line)."""
    return "".join(json.dumps(rec, default=str) + "\n" for rec in events)


CHANGE_FIELDS = ("community", "parcel", "from", "to", "answers", "effect")


def changes_csv(changes: list[dict]) -> str:
    """changes.csv: one row per changed parcel; ``answers`` joined by " | "."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CHANGE_FIELDS)
    for ch in changes:
        w.writerow([" | ".join(ch[k]) if k == "answers" else ch[k] for k in CHANGE_FIELDS])
    return buf.getvalue()


def write_outputs(res: Result, out: str | Path) -> dict[str, str]:
    """metrics.json, parcels.gpkg, changes.csv and transcript.jsonl in ``out`` (each written
    atomically)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    gpkg = out / "parcels.gpkg"
    fd, tmp = tempfile.mkstemp(suffix=".gpkg", dir=out, prefix=".parcels.")
    os.close(fd)
    os.unlink(tmp)  # GDAL refuses to create a GeoPackage over an existing empty file
    try:
        with warnings.catch_warnings():  # planar DRL parcels have no CRS: that is expected here
            warnings.filterwarnings("ignore", message="'crs' was not provided")
            for name, layer in result_layers(res).items():
                layer.to_file(tmp, layer=name, driver="GPKG", engine="pyogrio")
        os.replace(tmp, gpkg)
    finally:
        Path(tmp).unlink(missing_ok=True)
    transcript = atomic_write_text(out / "transcript.jsonl", transcript_text(res.events))
    changes = atomic_write_text(out / "changes.csv", changes_csv(res.changes))
    metrics = atomic_write_json(out / "metrics.json", res.metrics)
    return {"metrics": str(metrics), "parcels": str(gpkg), "changes": str(changes), "transcript": str(transcript)}
