"""What every intent class has: the rules that produce it (recognise), the slots without which
the reader asks instead of acting (needs, each with its question), the tools it calls and the
facts it reports from their results. ``INTENTS`` (``intents/__init__.py``) holds one instance per
intent; ``agent`` (calls), ``cognition`` (needs) and ``synthesis`` (facts) call through it."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ...tools import Observation

#: the calls an intent needs given what ran so far, and a limitation when it cannot proceed
Calls = tuple[list[tuple[str, dict]], "str | None"]


@dataclass
class Step:
    """What an intent chooses its calls from: the goal's slots, the region, and two views of the
    run so far (given by the agent, so that an intent never imports the agent loop)."""
    slots: dict[str, Any]
    region: str | None
    #: the latest observation of exactly this call (ok or failed), or None when it has not run
    done: Callable[[str, dict[str, Any]], Observation | None]
    #: ``$goal:N`` → the id of what goal N found, and why it could not be resolved (else None)
    ref: Callable[[Any], tuple[Any, str | None]]


class Facts:
    """What one goal's fact lines are written from: the goal, its last good result, its good and
    all observations, the region and the name index."""

    def __init__(self, g: Any, r: dict, good: list, obs: list, region: str | None, idx: Any):
        self.g, self.s, self.r, self.good, self.obs, self.region, self.idx = g, g.slots, r, good, obs, region, idx


class Intent:
    """One intent. Subclasses set the class attributes and write ``calls`` and ``facts``."""

    #: the intent's name (``Goal.intent``)
    name: ClassVar[str] = ""
    #: ids of the reading rules (``rules.RULES``) that produce a goal of this intent
    rules: ClassVar[tuple[str, ...]] = ()
    #: ids of the rules that only add to a goal of this intent already read (they produce no goal)
    follows: ClassVar[tuple[str, ...]] = ()
    #: (slot, the question asked when the slot is empty), in the order asked
    needs: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: whether the reader asks for the region when none is known
    needs_region: ClassVar[bool] = True
    #: the tools ``calls`` may return
    tools: ClassVar[tuple[str, ...]] = ()
    #: a failed call does not stop the goal's later calls (each answers on its own)
    independent_calls: ClassVar[bool] = False

    def missing(self, slots: dict[str, Any]) -> list[str]:
        """The questions for the needed slots that ``slots`` leaves empty."""
        return [q for k, q in self.needs if slots.get(k) in (None, "")]

    def tested(self, ran: list[Observation]) -> tuple[float | None, str]:
        """The value a condition on this goal tests ("if there are more than 3 …": a count, a
        distance, a score) and what it is, from the goal's observations; (None, "") for none."""
        return None, ""

    def calls(self, step: Step) -> Calls:
        """The calls the goal needs given what ran so far, and a limitation when it cannot proceed."""
        raise NotImplementedError

    def facts(self, f: Facts) -> list[str]:
        """The goal's fact lines, written from its tools' results."""
        raise NotImplementedError


def last_result(ran: list[Observation]) -> dict[str, Any] | None:
    """The result of the goal's last successful call, or None when none succeeded."""
    ok = [o for o in ran if o.ok]
    return ok[-1].result if ok else None


def first_result(ran: list[Observation]) -> dict[str, Any] | None:
    """The result of the goal's first successful call (the one that answers what was asked where later
    calls add beside it), or None when none succeeded."""
    ok = [o for o in ran if o.ok]
    return ok[0].result if ok else None


def slot_args(slots: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The slots ``keys`` that hold a value, as tool arguments."""
    return {k: slots[k] for k in keys if slots.get(k) not in (None, "")}
