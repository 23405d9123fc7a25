"""The tool registry served over MCP on stdio (pinned mcp==1.27.0, low-level ``Server``).

The low-level server is used rather than FastMCP so that MCP clients see exactly the JSON
input schemas the ask agent uses. Every call goes through ``Registry.call``: a failed
observation (bad arguments, nothing found, a place outside the region, a path outside the
allowed folders) is an MCP tool error (``isError``), never a crash of the server. A
successful call returns the result as structured content and as JSON text.
"""
from __future__ import annotations

import os
from typing import Any

from .tools import Registry, default_registry, dumps

SERVER_NAME = "cityplanner"


def build_server(registry: Registry) -> Any:
    import mcp.types as types
    from mcp.server.lowlevel import Server

    server = Server(SERVER_NAME)

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [types.Tool(name=t.name, description=t.description, inputSchema=t.schema)
                for t in registry.tools.values()]

    # validation happens in Registry.call, so schema errors come back as tool errors with our wording
    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        obs = registry.call(name, arguments or {})
        if not obs.ok:
            return types.CallToolResult(content=[types.TextContent(type="text", text=obs.error or "failed")],
                                        isError=True)
        return types.CallToolResult(content=[types.TextContent(type="text", text=dumps(obs.result))],
                                    structuredContent=obs.result)

    return server


async def serve(root: str | os.PathLike, read_roots: tuple[str | os.PathLike, ...] = ()) -> None:
    from mcp.server.stdio import stdio_server

    server = build_server(default_registry(root, read_roots))
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
