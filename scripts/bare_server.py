"""The benchmark's baseline: a bare MCP server with one echo tool, on the same SDK as the project."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

mcp: MCPServer[Any] = MCPServer("bare")


@mcp.tool()
def echo(text: str) -> dict[str, str]:
    """Echo."""
    return {"text": text}


if __name__ == "__main__":
    mcp.run()
