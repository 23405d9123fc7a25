"""The units a reading is made of, shared by ``cognition`` (the whole request) and ``rules``
(one clause): a goal with its slots, and a place span of the request."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

NEAR_M = 500.0   # what "near" means when the planner gives no distance (said in the answer)
AREA_KINDS = ("street", "place", "area")


@dataclass
class Goal:
    intent: str
    slots: dict[str, Any] = field(default_factory=dict)
    clause: str = ""
    branch: str = ""                     # "", "if", "then" or "else" (conditional requests)
    absent: list[str] = field(default_factory=list)   # names this goal needs that the data lacks


@dataclass
class Place:
    start: int
    end: int
    written: str
    name: str            # the data name ('' when absent)
    id: str
    kind: str
    message: str = ""    # for absent names
    match: Any = None    # the resolver's Match for a found name
    area_name: str = ""      # a district, street or named area so named ("Kluuvi", "Kaisaniemi")

    @property
    def found(self) -> bool:
        return bool(self.id)


def inside(a: int, s: int, e: int) -> bool:
    """Offset ``a`` lies in the clause [s, e)."""
    return s <= a < e


def sentence_at(request: str, start: int, end: int) -> str:
    """The sentence of ``request`` that holds the span [start, end)."""
    starts = [m.end() for m in re.finditer(r"[.?!;]\s", request[:start])]
    stop = re.compile(r"[.?!;](?:\s|$)").search(request, end)
    return request[starts[-1] if starts else 0:stop.end() if stop else len(request)]
