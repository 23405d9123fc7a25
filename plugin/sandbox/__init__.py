"""UrbanSandbox: episode workspaces, the plan evaluator and the virtual terminal (docs/design.md#the-sandbox)."""
from .evaluator import evaluate_plan_file
from .terminal import VirtualTerminal, parse_turn
from .verbs import VerbError, register_verb
from .workspace import load_instance, read_plan, write_workspace

__all__ = ["VerbError", "VirtualTerminal", "evaluate_plan_file", "load_instance", "parse_turn", "read_plan",
           "register_verb", "write_workspace"]
