"""Road construction constants: the paper's score weights and the parameters of instance
generation and link costs."""
from __future__ import annotations

# ---------------------------------------------------------------- score weights
W_RHO = 0.1          # paper: S = Q − 0.1·ρ − V
W_CROSS = 0.05       # V per pair of selected new links that cross without a junction

# ---------------------------------------------------------------- instance generation
TARGET = {"small": 63, "medium": 102, "large": 143}   # paper's mean candidate counts
N_GROUPS = {"small": 10, "medium": 14, "large": 18}   # demand faces sampled ∝ demand
N_CUT = {"small": 2, "medium": 3, "large": 4}         # demand faces cut off from the network
N_DETOUR = {"small": 4, "medium": 6, "large": 8}      # extra removed through links
CUT_MARGIN = (10.0, 60.0)    # m beyond a cut face's entry nodes where its links are removed
LINK_RADIUS = 150.0          # m, longest new link
MIN_LINK = 10.0              # m, shortest new link
MIN_DETOUR = 1.6             # a new link must shorten the network path by this factor
UNIT_COST = {"new": 1.5, "rebuild": 1.0}   # k€ per m before the class factor
CLASS_FACTOR = {"motorway": 2.0, "trunk": 1.8, "primary": 1.6, "secondary": 1.4, "tertiary": 1.2,
                "service": 0.7}            # other classes 1.0; *_link as their parent class
NEW_CLASS = "residential"
BUDGET_FACTOR = (0.06, 0.10)  # budget = factor × total candidate cost, at least CONNECT_SLACK ×
CONNECT_SLACK = 1.2           # the cost of a cheap plan that connects every pair
STEP_SHARE = 0.5              # max_select = ceil(share × n), at least that plan's size + 2
TOL = 1e-9


def class_factor(highway: str) -> float:
    return CLASS_FACTOR.get(str(highway).removesuffix("_link"), 1.0)

__all__ = ["W_RHO", "W_CROSS", "TARGET", "N_GROUPS", "N_CUT", "N_DETOUR", "CUT_MARGIN", "LINK_RADIUS",
           "MIN_LINK", "MIN_DETOUR", "UNIT_COST", "CLASS_FACTOR", "NEW_CLASS", "BUDGET_FACTOR",
           "CONNECT_SLACK", "STEP_SHARE", "TOL", "class_factor"]
