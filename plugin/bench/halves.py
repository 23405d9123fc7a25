"""The held-out halves of the request and instruction sets (resources/heldout/README.md): the one place
that says which halves are retired to dev after their one held-out run and which one is next.

Retiring a half after its run is one edit here (``RETIRED_TO``), its record in
tests/core/data/judged_scores.json and its README section; the bench's splits, the ask loader's file
names and the judged-set guard follow from these names."""
from __future__ import annotations

#: the third to this half are retired to dev (their files keep the ``*_vN_test.json`` names, so their
#: committed hashes still check); the first request half was retired as ``v1`` (ask_v1.json)
RETIRED_TO = 16
#: the next half, still held out: tuners never open its files
NEXT = RETIRED_TO + 1
_RETIRED = range(3, RETIRED_TO + 1)

#: retired ask halves by the dev name they run under → their file
ASK_RETIRED: dict[str, str] = {f"v{n}": f"ask_v{n}_test.json" for n in _RETIRED}
#: the instruction bench's splits: the dev half, the test half, the third to the next half
INSTRUCTION_SPLITS: tuple[str, ...] = ("dev", "test", *(f"v{n}_test" for n in range(3, NEXT + 1)))
#: the ask bench's splits: dev sets, the retired halves by their dev names, the halves by file name
ASK_SPLITS: tuple[str, ...] = ("dev", "test", "v1", "dev2", "dev3", "dev4", *ASK_RETIRED, *INSTRUCTION_SPLITS[2:])
#: the names of the halves still held out: never run by the judged sets
STILL_HELD_OUT: tuple[str, ...] = ("test", f"v{NEXT}", f"v{NEXT}_test")
