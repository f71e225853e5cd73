"""The seeds' weather tool as a stdio server on the official Python SDK (`mcp` 2.x,
`MCPServer`): what most people debug, and what the bridge serves over Streamable HTTP.

    python py_stdio_weather.py

Speaks MCP on stdin/stdout; logs go to stderr. `unlock_forecast` adds a tool and says so
(`notifications/tools/list_changed`), for clients that list the tools again.
"""

from mcp.server import MCPServer
from mcp.server.mcpserver import Context

CONDITIONS = {"tokyo": "Sunny", "london": "Rainy", "paris": "Cloudy", "berlin": "Overcast"}

mcp = MCPServer("py-stdio-weather", version="2.3.0")


@mcp.tool()
def get_weather(location: str) -> str:
    """Get the current weather for a city"""
    condition = CONDITIONS.get(location.lower())
    if condition is None:
        raise ValueError(f"Unknown city: {location}")
    return condition


def get_forecast(location: str) -> str:
    """Get tomorrow's forecast for a city"""
    return f"Tomorrow in {location}: {CONDITIONS.get(location.lower(), 'Unknown')}"


@mcp.tool()
async def unlock_forecast(ctx: Context) -> str:
    """Adds the tool get_forecast, and tells the client its tools changed"""
    if "get_forecast" not in [t.name for t in await mcp.list_tools()]:
        mcp.add_tool(get_forecast)
    await ctx.session.send_tool_list_changed()
    return "get_forecast is now available"


if __name__ == "__main__":
    mcp.run("stdio")
