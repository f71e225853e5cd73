"""A host nobody here wrote: the official Python SDK's client calling get_weather, over Streamable
HTTP (argument: the MCP endpoint) or over stdio (arguments after `--`: the server's command), for
the e2e scenarios that watch a host through the bridge. Prints the tools and the result."""

import asyncio
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def main(args: list[str]) -> None:
    if args[:1] == ["--"]:
        server = StdioServerParameters(command=args[1], args=args[2:])
    else:
        server = args[0]
    async with Client(server) as client:
        tools = await client.list_tools()
        print("tools:", ", ".join(tool.name for tool in tools.tools), flush=True)
        result = await client.call_tool("get_weather", {"location": "Tokyo"})
        said = " ".join(getattr(block, "text", "") for block in result.content)
        print("result:", said, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
