"""Build station instance (Toolbox: Planning tasks)."""
from .build_instance import BuildInstance


class BuildStationInstance(BuildInstance):
    TASK = "station"
