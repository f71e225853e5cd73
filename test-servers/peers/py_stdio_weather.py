"""The seeds' weather tool as a stdio server on the official Python SDK (`mcp` 2.x,
`MCPServer`): what most people debug, and what the bridge serves over Streamable HTTP.

    python py_stdio_weather.py

Speaks MCP on stdin/stdout; logs go to stderr.
"""

from mcp.server import MCPServer

CONDITIONS = {"tokyo": "Sunny", "london": "Rainy", "paris": "Cloudy", "berlin": "Overcast"}

mcp = MCPServer("py-stdio-weather", version="2.3.0")


@mcp.tool()
def get_weather(location: str) -> str:
    """Get the current weather for a city"""
    condition = CONDITIONS.get(location.lower())
    if condition is None:
        raise ValueError(f"Unknown city: {location}")
    return condition


if __name__ == "__main__":
    mcp.run("stdio")
