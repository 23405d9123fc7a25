"""Build road instance (Toolbox: Planning tasks)."""
from .build_instance import BuildInstance


class BuildRoadInstance(BuildInstance):
    TASK = "road"
