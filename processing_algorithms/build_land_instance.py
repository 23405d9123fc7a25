"""Build land instance (Toolbox: Planning tasks)."""
from .build_instance import BuildInstance


class BuildLandInstance(BuildInstance):
    TASK = "land"
