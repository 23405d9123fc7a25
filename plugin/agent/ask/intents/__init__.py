"""One class per intent (``base.Intent``): the rules that produce it, what it needs (the slots
without which the reader asks, and the question), the tools it calls and the facts it reports.
``INTENTS`` is the registry ``agent``, ``cognition`` and ``synthesis`` call through; adding an
intent is a new module here, its line below and the rule(s) that produce it (docs/ask.md)."""
from __future__ import annotations

from .base import Calls, Facts, Intent, Step
from .compare import Compare
from .compare_plans import ComparePlans
from .find import Count, Exists, Find
from .locate import Locate
from .nearest import Nearest
from .participation import Participation
from .plan import Plan
from .route import Route
from .street import Street
from .summary import Summary
from .within import Within

#: every intent by name, in the order the model's reading schema lists them
INTENTS: dict[str, Intent] = {i.name: i for i in (
    Summary(), Find(), Count(), Exists(), Nearest(), Route(), Within(), Compare(), Plan(), ComparePlans(),
    Participation(), Locate(), Street())}

__all__ = ["INTENTS", "Calls", "Facts", "Intent", "Step"]
