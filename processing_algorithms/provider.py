"""The ``cityplanner`` Processing provider."""
from __future__ import annotations

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from ..plugin import PLUGIN_ROOT
from .budget_curve import BudgetCurve
from .build_city_model import BuildCityModel
from .build_land_instance import BuildLandInstance
from .build_road_instance import BuildRoadInstance
from .build_station_instance import BuildStationInstance
from .evaluate_plan import EvaluatePlan
from .participatory_revision import ParticipatoryRevision
from .solve_land import SolveLand
from .solve_road import SolveRoad
from .solve_station import SolveStation


class CityPlannerProvider(QgsProcessingProvider):
    def id(self) -> str:
        return "cityplanner"

    def name(self) -> str:
        return "CityPlanner"

    def longName(self) -> str:
        return "CityPlanner: executable urban planning"

    def icon(self) -> QIcon:
        return QIcon(str(PLUGIN_ROOT / "resources" / "icon.svg"))

    def loadAlgorithms(self) -> None:
        for alg in (BuildCityModel(), BuildLandInstance(), BuildRoadInstance(), BuildStationInstance(),
                    SolveLand(), SolveRoad(), SolveStation(), EvaluatePlan(), ParticipatoryRevision(), BudgetCurve()):
            self.addAlgorithm(alg)
