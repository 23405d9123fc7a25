"""The road construction task as every consumer reads it (``plugin.tasks.spec``)."""
from __future__ import annotations

from ..spec import Knob, OwnLayer, TaskSpec, Term

SPEC = TaskSpec(
    name="road",
    title="road construction",
    instance=".road:RoadConstruction",
    candidate_style="candidates_road",
    geometry="line",
    candidate_layer="one feature per road segment that could be built (new links; in benchmark mode also "
                    "the rebuilt links)",
    id_word="link",
    score_formula="S = network quality − 0.1·budget share − penalties",
    legend=(
        Term("Q", 1.0, "network quality: when every pair of neighbourhoods is connected, how short the trips "
                       "are compared with building every candidate (1 = as short); otherwise the share of "
                       "pairs connected minus 1"),
        Term("rho", -0.1, "share of the budget spent"),
        Term("V", -1.0, "penalty for new links that cross each other"),
    ),
    score_terms={"connectivity": "Gamma", "travel_time": "Delta", "cost": "rho"},
    score_max=1.0,   # Q = Δ ≤ 1 (D_P ≥ D_ideal)
    types=(),
    site_fields=("kind", "highway", "length_m", "reconnects"),
    milp_module=".road",
    at_scale_n=1000,   # = solvers.default.SCALE_N: the flow models outgrow memory, the connection-cost bound instead
    scale_sizes=(100, 250, 500, 1000, 2000, 4000),
    audit="_road",
    audit_checks=("crosses_building", "crosses_water", "outside_study_area"),
    knobs=(Knob("N_CANDIDATES", "n_candidates", "Number of candidate segments (0 = the size's default)",
                "New straight links (benchmark mode: plus rebuilt links)."),
           Knob("N_GROUPS", "n_groups", "Demand faces to connect (0 = the size's default)",
                "Residential blocks sampled by demand; every pair of them should be connected."),
           Knob("LINK_RADIUS", "link_radius", "Longest new link in metres (0 = 150 m)",
                "New straight links join nodes at most this far apart.", integer=False, advanced=False)),
    own_layer=OwnLayer("--links", "line", "from_links", "Proposed links (your own, optional)",
                       "Lines that could be built, instead of generated links; each must end within 30 m of "
                       "the road network at both ends. Optional field: cost (k€).", ("cost",)),
    style="plan_road",
)
