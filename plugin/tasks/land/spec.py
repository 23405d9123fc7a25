"""The land allocation task as every consumer reads it (``plugin.tasks.spec``)."""
from __future__ import annotations

from ..spec import Knob, TaskSpec, Term
from .constants import TYPES

SPEC = TaskSpec(
    name="land",
    title="land allocation",
    instance=".land:LandAllocation",
    candidate_style="candidates_land",
    geometry="polygon",
    candidate_layer="one feature per (parcel, land-use type) assignment; at most one type per parcel",
    id_word="parcel",
    score_formula="S = 0.6·need met + 0.3·access − 0.2·budget share − penalties",
    legend=(
        Term("R", 0.6, "how well the plan meets the needed number of parcels of each land use"),
        Term("A", 0.3, "residents' access: (5 × services within 500 m + green within 300 m) / 6"),
        Term("rho", -0.2, "share of the budget spent"),
        Term("V", -1.0, "penalty for building more of a type than needed"),
    ),
    score_terms={"R": "R", "need": "R", "service": "service", "ecology": "ecology", "cost": "rho"},
    score_max=0.9,   # R ≤ 1, A ≤ 1: 0.6 + 0.3
    types=TYPES,
    site_fields=("type", "face_id", "dev_area", "new_units"),
    milp_module=".land",
    at_scale_n=None,   # land's MIP ends in seconds at 1,000 candidates
    scale_sizes=(100, 250, 500, 1000, 2000, 4000),
    audit="_land",
    audit_checks=("outside_study_area", "on_road_reserve", "in_water", "on_non_buildable", "too_small",
                  "too_narrow"),
    knobs=(Knob("N_CANDIDATES", "n_candidates", "Number of candidates (0 = the size's default)",
                "Candidate (parcel, type) pairs drawn from vacant or redevelopable blocks."),),
    style="plan_land",
)
