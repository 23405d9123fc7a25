"""Station placement constants: the paper's weights, charger configurations and costs, site
kinds, the score's parameters and those of instance generation."""
from __future__ import annotations

import numpy as np

W_A, W_D, W_T, W_RHO = 0.50, 0.25, 0.15, 0.20  # the paper's weights
SUPPLY = np.array([1.0, 3.0, 8.0])              # q per slow / medium / fast charger (7 / 22 / 50 kW)
CHARGER_COST = np.array([6.0, 15.0, 45.0])      # k€ per installed slow / medium / fast charger
#: (slow, medium, fast) configurations offered, in increasing supply q
CONFIGS = ((4, 0, 0), (2, 2, 0), (0, 4, 0), (4, 2, 1), (2, 4, 1), (0, 4, 2), (2, 2, 4), (0, 4, 5), (0, 2, 7))
#: site kind -> (sampling priority, site cost k€): a POI kind, "face" (a large block or one with
#: parking) or "curb" (a street junction: kerbside chargers, the fallback where places are few)
SITE_KINDS = {"charging": (4.0, 10.0), "fuel": (3.0, 15.0), "parking": (3.0, 20.0),
              "face": (2.0, 25.0), "business": (1.0, 30.0), "curb": (0.5, 12.0)}
#: size -> (sites, configurations per site, demand grid cell m, step limit, budget factor)
SIZE_PARAMS = {"small": (20, 4, 200.0, 6, 0.70), "medium": (16, 5, 100.0, 5, 0.55),
               "large": (36, 5, 120.0, 10, 0.60)}
#: the score's parameters (data.params may override them)
DEFAULT_PARAMS = {
    "beta": 0.5,            # queue-pressure weight in the generalized distance
    "lambda_over": 0.5,     # V weight of overload (share of demand beyond capacity)
    "lambda_unserved": 0.1,  # V weight of unserved (uncovered) demand share
    "lambda_rule": 1.0,     # V weight per duplicate-site configuration and per plan slot over the limit
}
MU = 2.0                    # charging sessions per day per supply unit (a 7 kW charger ≈ 2)
DEMAND_RATIO = 0.8          # total EV demand = this × the capacity the budget buys at the median price
#: r0, r1 as multiples of r_ref = DETOUR·sqrt(region area / (π·max_select)), the radius at which
#: max_select stations could cover the region; a median configuration (q ≈ 18) gets ≈ r_ref
RADIUS_SHAPE = (0.6, 0.1)
SITE_REACH_M = 400.0        # sites are sampled more often where residents live within this distance
MIN_SPACING_M = 20.0        # two places closer than this are one site
DETOUR = 1.4                # distance factor where the road network does not connect two points
FACE_SITE_MIN_AREA = 5000.0  # a block this large (m²) or with parking area can host a site
SITE_ROAD_M = 100.0         # a site farther than this from the main road network is unreachable
PARAMS = ("n_sites", "n_configs", "cell_m", "max_select", "budget_factor")
# plan mode (docs/modes.md): chargers on the curb
CURB_MAX_M = 2.0            # a kerbside site lies within this of a street line
#: and at least this far from any junction where three or more street segments meet: the
#: 10 m of a zebra crossing or a junction's no-parking zone (5 m in most European codes,
#: 20-30 ft in US ones) plus a car length to pull in and out
JUNCTION_CLEAR_M = 15.0
CURB_STEP_M = 100.0         # kerbside places along a street: its middle, and every this many metres on long streets
#: places that are sites in their own right (an existing charger, a fuel station, a car park):
#: kept where they are, only never on a junction node (within CURB_MAX_M of one)
PLACE_KINDS = ("charging", "fuel", "parking")
AREA_SITES_PER_STATION = 10  # whole area: step limit = sites / this (at least 10)
AREA_DEMAND_CELLS = 300    # whole area: demand cell so that the bounding box holds about this many
AREA_CONFIGS = 5           # whole area: configurations per site (one per slice of CONFIGS by q)

__all__ = ["W_A", "W_D", "W_T", "W_RHO", "SUPPLY", "CHARGER_COST", "CONFIGS", "SITE_KINDS", "SIZE_PARAMS",
           "DEFAULT_PARAMS", "MU", "DEMAND_RATIO", "RADIUS_SHAPE", "SITE_REACH_M", "MIN_SPACING_M", "DETOUR",
           "FACE_SITE_MIN_AREA", "SITE_ROAD_M", "PARAMS", "CURB_MAX_M", "JUNCTION_CLEAR_M", "CURB_STEP_M", "PLACE_KINDS",
           "AREA_SITES_PER_STATION", "AREA_DEMAND_CELLS", "AREA_CONFIGS"]
