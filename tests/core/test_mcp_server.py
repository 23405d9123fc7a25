"""``python -m plugin mcp`` driven by the real mcp client over stdio."""
import sys
from pathlib import Path

import anyio
import pytest

ROOT = Path(__file__).resolve().parents[2]
CALLS = {
    "region_summary": {"region": "kotka"},
    "find_features": {"region": "helsinki", "category": "charging"},
    "nearest_facility": {"region": "helsinki", "place": "Stockmann", "category": "school"},
    "route": {"region": "helsinki", "origin": "Stockmann", "destination": "Forum"},
    "within_distance": {"region": "helsinki", "place": "Forum", "radius_m": 250, "category": "parking"},
    "street_facts": {"region": "helsinki", "street": "Yrjönkatu"},
    "build_instance": {"region": "kotka", "task": "station", "budget": 200, "workspace": "w"},
    "solve_plan": {"workspace": "w", "method": "greedy", "time_limit": 2},
    "evaluate_plan": {"workspace": "w"},
    "add_constraint": {"workspace": "w", "instruction": "spend at most 80 % of the budget", "time_limit": 20},
    "list_constraints": {"workspace": "w"},
    "remove_constraint": {"workspace": "w", "key": "c1"},
}


@pytest.mark.slow  # a real server process, every tool called through it (a MILP among them)
def test_mcp_lists_and_calls_every_tool(tmp_path):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    parcels = tmp_path / "read" / "p.geojson"
    parcels.parent.mkdir()
    parcels.write_text('{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"type":4},'
                       '"geometry":{"type":"Polygon","coordinates":[[[0,0],[100,0],[100,100],[0,100],[0,0]]]}},'
                       '{"type":"Feature","properties":{"type":9},"geometry":{"type":"Polygon","coordinates":'
                       '[[[200,0],[300,0],[300,100],[200,100],[200,0]]]}}]}')
    calls = {**CALLS, "participation_metrics": {"parcels": str(parcels)}}

    async def main():
        params = StdioServerParameters(command=sys.executable, cwd=str(ROOT), args=[
            "-m", "plugin", "mcp", "--root", str(tmp_path / "ws"), "--allow-read", str(parcels.parent)])
        async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            names = [t.name for t in (await s.list_tools()).tools]
            assert sorted(names) == sorted(calls)
            for name, args in calls.items():
                res = await s.call_tool(name, args)
                assert not res.isError, (name, res.content[0].text)
                assert res.structuredContent
            bad = await s.call_tool("route", {"region": "helsinki", "origin": 1})
            assert bad.isError and "bad arguments" in bad.content[0].text
            outside = await s.call_tool("participation_metrics", {"parcels": str(ROOT / "README.md")})
            assert outside.isError and "outside" in outside.content[0].text
            again = await s.call_tool("region_summary", {"region": "helsinki"})  # server still alive
            assert not again.isError

    anyio.run(main)
    assert not any(p for p in (tmp_path / "ws").iterdir() if p.name != "w")
