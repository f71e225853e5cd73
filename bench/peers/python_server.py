"""The weather tool on the official Python SDK (mcp 2.x MCPServer, formerly FastMCP) over
Streamable HTTP (stateful, SSE responses), for `cargo xtask bench`.

    python bench/peers/python_server.py PORT
"""

import sys

from mcp.server.mcpserver import MCPServer

CONDITIONS = {"tokyo": "Sunny", "london": "Rainy", "paris": "Cloudy"}

mcp = MCPServer("python-weather")


@mcp.tool()
def get_weather(location: str) -> str:
    """Get the current weather for a city"""
    condition = CONDITIONS.get(location.lower())
    if condition is None:
        raise ValueError(f"Unknown city: {location}")
    return condition


if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    print(f"python-server listening on http://127.0.0.1:{port}/mcp", flush=True)
    mcp.run("streamable-http", host="127.0.0.1", port=port, streamable_http_path="/mcp")
