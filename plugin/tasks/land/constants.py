"""Land allocation constants: the type vocabulary and service kinds (docs/reference.md#service-and-ecology), the
paper's score weights, and the parameters of instance generation."""
from __future__ import annotations

# ---------------------------------------------------------------- vocabulary (docs/reference.md#service-and-ecology)
TYPES = ("business", "office", "green_l", "green_s", "school", "hospital_l", "hospital_s", "recreation")
#: parcel ``type`` codes of the participation GeoJSON files
TYPE_CODES = {1: "feasible", 4: "residential", 5: "business", 6: "office", 7: "green_l", 8: "green_s",
              9: "school", 10: "hospital_l", 11: "hospital_s", 12: "recreation"}
KINDS = ("shopping", "work", "education", "medical", "entertainment")
SERVICE_KIND = {"business": "shopping", "office": "work", "school": "education",
                "hospital_l": "medical", "hospital_s": "medical", "recreation": "entertainment"}
GREEN_TYPES = ("green_l", "green_s")
ECOLOGY = len(KINDS)            # row index of ecology next to the five service kinds
SERVICE_RADIUS = 500.0          # m, nearest facility of a kind within this serves a unit
ECOLOGY_RADIUS = 300.0          # m, buffer around green
GREEN_MIN_AREA = 2000.0         # m², smaller green does not count for ecology

# ---------------------------------------------------------------- score weights (paper)
W_R, W_A, W_RHO, W_V = 0.6, 0.3, 0.2, 0.1

# ---------------------------------------------------------------- instance generation
TARGET = {"small": 85, "medium": 119, "large": 199}   # paper's mean candidate counts
#: developed plot per type at most (m², the hlg max_area); a larger face is only partly used
MAX_AREA = {"business": 20000.0, "office": 20000.0, "green_l": 90000.0, "green_s": 10000.0,
            "school": 20000.0, "hospital_l": 30000.0, "hospital_s": 10000.0, "recreation": 10000.0}
LAND_RATE = 0.3                 # k€ per m² of plot, all types
BUILD_RATE = {"business": 1.2, "office": 1.5, "green_l": 0.05, "green_s": 0.08, "school": 1.8,
              "hospital_l": 3.0, "hospital_s": 2.5, "recreation": 0.4}   # k€ per m² of plot
REDEVELOPMENT = 2.0             # cost × (1 + REDEVELOPMENT · coverage): demolition and buy-out
#: relative need per type (hlg objective counts; green_s, absent there, gets 3)
NEED_BASE = {"business": 4, "office": 6, "green_l": 2, "green_s": 3, "school": 6, "hospital_l": 2,
             "hospital_s": 4, "recreation": 6}
NEED_SHARE = 0.4                # Σ n_t ≈ this share of the candidate faces
REDEV_LANDUSE = frozenset({"brownfield", "construction", "grass", "greenfield", "parking", "railway",
                           "garages", "meadow", "farmland", "landfill"})
LOW_COVERAGE = 0.15
UNDERUSED_AREA, UNDERUSED_FAR = 5000.0, 0.5   # large faces with little floor area
HIGH_DEMAND = 100.0             # residents: such a built-up face stays a demand unit
BUDGET_FACTOR = 0.75            # budget = factor × cost of the cheapest full plan (binds)
#: existing facilities from face POI counts
EXISTING_COLUMNS = {"shopping": ("n_business",), "work": ("n_office",), "education": ("n_school",),
                    "medical": ("n_hospital", "n_clinic"), "entertainment": ("n_recreation",)}


__all__ = ["TYPES", "TYPE_CODES", "KINDS", "SERVICE_KIND", "GREEN_TYPES", "ECOLOGY", "SERVICE_RADIUS",
           "ECOLOGY_RADIUS", "GREEN_MIN_AREA", "W_R", "W_A", "W_RHO", "W_V", "TARGET", "MAX_AREA",
           "LAND_RATE", "BUILD_RATE", "REDEVELOPMENT", "NEED_BASE", "NEED_SHARE", "REDEV_LANDUSE",
           "LOW_COVERAGE", "UNDERUSED_AREA", "UNDERUSED_FAR", "HIGH_DEMAND", "BUDGET_FACTOR",
           "EXISTING_COLUMNS"]
