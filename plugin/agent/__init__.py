"""LLM planner agent: backends, protocol, BuildPlan/ImprovePlan loop, tools (no QGIS import)."""
