"""The station placement task as every consumer reads it (``plugin.tasks.spec``)."""
from __future__ import annotations

from ..spec import Knob, OwnLayer, TaskSpec, Term

SPEC = TaskSpec(
    name="station",
    title="station placement",
    instance=".station:StationPlacement",
    candidate_style="candidates_station",
    geometry="point",
    candidate_layer="one feature per (site, charger configuration); at most one configuration per site",
    id_word="site",
    score_formula="S = 0.50·coverage + 0.25·access + 0.15·service time − 0.20·budget share − penalties",
    legend=(
        Term("coverage", 0.50, "share of the EV charging demand within reach of a station"),
        Term("access", 0.25, "how close that demand is to its station (1 = at the door)"),
        Term("service_time", 0.15, "share of drivers' time spent charging rather than queueing"),
        Term("cost_ratio", -0.20, "share of the budget spent"),
        Term("penalty", -1.0, "penalties for overloaded stations and unserved demand"),
    ),
    score_terms={"coverage": "coverage", "access": "access", "service_time": "service_time", "cost": "cost_ratio"},
    score_max=0.9,   # A, D, T ≤ 1: 0.50 + 0.25 + 0.15
    types=("parking", "fuel", "curb"),
    site_fields=("site", "site_kind", "n_slow", "n_medium", "n_fast", "capacity", "demand_in_radius"),
    milp_module=".station",
    # from 500 the full MIP, with no early LP below LP_MIN_VARS, was killed at 60 s with only the
    # trivial bound (optimal at 104 s), while the at-scale form always has its LP bound
    at_scale_n=500,
    scale_sizes=(100, 250, 500, 1000, 2000, 4000),
    audit="_station",
    audit_checks=("outside_study_area", "in_water", "unreachable", "near_junction"),
    knobs=(Knob("N_SITES", "n_sites", "Candidate sites (0 = the size's default)",
                "Parking, fuel, charging and business places or large blocks.", advanced=False),
           Knob("N_CONFIGS", "n_configs", "Charger configurations per site (0 = the size's default)",
                "Each configuration is a mix of slow / medium / fast chargers."),
           Knob("MAX_SELECT", "max_select", "Stations to place at most (0 = the size's default)",
                "The plan's step limit.", advanced=False)),
    own_layer=OwnLayer("--sites", "point", "from_sites", "Candidate sites (your own, optional)",
                       "Points where a station could go, instead of generated sites. Optional fields: configs "
                       "(allowed charger configurations, e.g. 4/0/0;0/4/2 as slow/medium/fast), cost (site cost "
                       "in k€), capacity (most chargers), kind (charging, fuel, parking, face, business, curb), "
                       "name.", ("configs", "cost", "capacity", "kind", "name")),
    style="plan_station",
)
