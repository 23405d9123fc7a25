"""One participatory revision, end to end, and its files.

initial plan → per community (in order): N fishbowl rounds → planner revision → acceptance
→ next community sees the revised plan. Outputs (``write_outputs``): metrics.json (before /
after / baselines, timings, LLM usage), parcels.gpkg (layers ``parcels`` with the revised
land use and ``residents`` with needs and satisfaction), transcript.jsonl (one line per
round with opinions and summary, one per revision).
"""
from __future__ import annotations

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
from .fishbowl import Opinion, RulePersona, Summary, discuss, split_communities
from .metrics import plan_metrics
from .planner import changes_between, solver_revision
from .population import Population, ProfileTable, sample_population
from .region import Region

PLANNERS = ("solver", "llm")


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

    def check(self) -> None:
        for name in ("residents", "rounds", "speakers", "communities"):
            if getattr(self, name) < 1:
                raise InputError(f"--{name} must be at least 1, got {getattr(self, name)}")
        if self.residents < self.speakers:
            raise InputError(f"fewer residents ({self.residents}) than speakers per round ({self.speakers})")
        if self.persona not in ("rules", "llm"):
            raise InputError(f"unknown persona '{self.persona}' (choose rules, llm)")
        if self.planner not in PLANNERS:
            raise InputError(f"unknown planner '{self.planner}' (choose {', '.join(PLANNERS)})")


@dataclass
class Result:
    region: Region
    pop: Population
    community: np.ndarray
    plan_before: np.ndarray
    plan_after: np.ndarray
    metrics: dict
    events: list[dict] = field(default_factory=list)


def _stated_satisfaction(pop: Population, plan: np.ndarray, who: np.ndarray) -> float:
    return float(pop.satisfaction(plan)[who].mean()) if len(who) else 0.0


def run(region: Region, cfg: Config, persona: RulePersona | None = None,
        on_event: Callable[[dict], None] | None = None, cancel: Callable[[], bool] | None = None,
        llm_planner=None) -> Result:
    """Run the whole participatory revision; ``on_event`` gets every transcript record."""
    cfg.check()
    t0 = time.perf_counter()
    persona = persona or RulePersona()
    events: list[dict] = []

    def emit(rec: dict) -> None:
        events.append(rec)
        if on_event is not None:
            on_event(rec)

    pop = sample_population(region, cfg.residents, cfg.seed, ProfileTable.load(cfg.profiles))
    community = split_communities(region, cfg.communities, cfg.seed)
    plan0 = region.plan0
    plan = plan0.copy()
    service0 = region.service(plan0)
    timings = {"residents": round(time.perf_counter() - t0, 3), "discussion": 0.0, "planner": 0.0}
    for c in range(cfg.communities):
        t1 = time.perf_counter()

        def on_round(s: Summary, ops: list[Opinion]) -> None:
            emit({"event": "round", "community": c, "round": s.round, "summary": s.to_json(),
                  "opinions": [o.__dict__ for o in ops]})

        disc = discuss(region, pop, plan, community, c, cfg.rounds, cfg.speakers, persona, cfg.seed, on_round, cancel)
        t2 = time.perf_counter()
        timings["discussion"] += t2 - t1
        parcels = community == c
        if not disc.summaries or not (parcels & region.plannable).any():
            emit({"event": "revision", "community": c, "accepted": False, "reason": "no participants or parcels",
                  "changes": []})
            continue
        if cfg.planner == "llm" and llm_planner is not None:
            new, note = llm_planner.revise(region, plan, parcels, disc.summaries)
        else:
            new, note = solver_revision(region, plan, parcels, disc.summaries, service0, cancel)
        spoke = np.unique([o.resident for ops in disc.opinions for o in ops])
        before_s, after_s = _stated_satisfaction(pop, plan, spoke), _stated_satisfaction(pop, new, spoke)
        ok_service = region.service(new) >= service0 - 1e-9
        accepted = ok_service and after_s >= before_s
        reason = note if accepted else ("service would fall below the initial plan's" if not ok_service
                                        else "speakers' satisfaction would fall")
        emit({"event": "revision", "community": c, "accepted": accepted, "reason": reason,
              "changes": changes_between(region, plan, new) if accepted else [],
              "speakers_satisfaction": [round(before_s, 4), round(after_s, 4)]})
        if accepted:
            plan = new
        timings["planner"] += time.perf_counter() - t2
    metrics = {"before": plan_metrics(region, pop, plan0), "after": plan_metrics(region, pop, plan)}
    timings["total"] = round(time.perf_counter() - t0, 3)
    if cfg.baselines:
        t3 = time.perf_counter()
        metrics["baselines"] = baseline_metrics(region, pop, plan0, cfg.seed)
        timings["baselines"] = round(time.perf_counter() - t3, 3)
    metrics["timings"] = {k: round(v, 3) for k, v in timings.items()}
    metrics["config"] = cfg.__dict__ | {"region": region.name}
    metrics["residents"] = {"n": pop.n, "vulnerable": int(pop.vulnerable.sum()),
                            "needs_source": {s: int((pop.needs_source == s).sum()) for s in ("rules", "llm")}}
    metrics["changed_parcels"] = int((plan != plan0).sum())
    return Result(region, pop, community, plan0, plan, metrics, events)


def run_with_voice(region: Region, cfg: Config, model: str | None = "default", endpoint: str | None = None,
                   threads: int | None = None, max_tokens: int = 96,
                   on_event: Callable[[dict], None] | None = None,
                   cancel: Callable[[], bool] | None = None) -> Result:
    """``run`` with the LLM voice (``model``: a GGUF path or "default", or ``endpoint``) opened
    and closed around it when the persona or the planner is ``llm``; its token and fallback
    counts land in ``metrics["llm"]``."""
    cfg.check()
    if "llm" not in (cfg.persona, cfg.planner):
        return run(region, cfg, on_event=on_event, cancel=cancel)
    from .llm import LlmVoice

    voice = LlmVoice.open(model, endpoint, threads=threads, max_tokens=max_tokens, seed=cfg.seed)
    try:
        res = run(region, cfg, persona=voice if cfg.persona == "llm" else None, on_event=on_event, cancel=cancel,
                  llm_planner=voice)
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
        "vulnerable": pop.vulnerable, "needs": needs, "needs_source": pop.needs_source.astype(str),
        "satisfaction_before": sat0.round(4), "satisfaction": sat1.round(4),
    }, geometry=gpd.points_from_xy(pop.xy[:, 0], pop.xy[:, 1]), crs=region.parcels.crs)
    return {"parcels": parcels, "residents": residents}


def transcript_text(events: list[dict]) -> str:
    """The transcript as JSON lines (one round or revision per line)."""
    return "".join(json.dumps(rec, default=str) + "\n" for rec in events)


def write_outputs(res: Result, out: str | Path) -> dict[str, str]:
    """metrics.json, parcels.gpkg and transcript.jsonl in ``out`` (each written atomically)."""
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
    metrics = atomic_write_json(out / "metrics.json", res.metrics)
    return {"metrics": str(metrics), "parcels": str(gpkg), "transcript": str(transcript)}
