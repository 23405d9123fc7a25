"""Planner instructions as constraints: the language (``schema``), compiling against an
Instance (``compile``, ``constrained``), workspace storage (``store``), reading text
(``rules``, ``llm``, ``interpret``, ``resolve``) and the priced round trip (``roundtrip``).
README.md in this folder documents the language."""
