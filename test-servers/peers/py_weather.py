"""The seeds' weather tool on the official Python SDK (`mcp` 2.x, `MCPServer`), a tool whose
parameter the SDK fills by asking the client for its roots (a `ListRoots` resolver: `roots/list`
on the call's stream in 2025-11-25, an `input_required` result in 2026-07-28), one filled by the
client's model (a `Sample` resolver: `sampling/createMessage` the same two ways), one that asks the
user to open a page (URL-mode elicitation, 2025-11-25 sessions), plus the resource
`weather://cities`, the template `weather://city/{name}` and the prompt `weather_report`, both with
city-name completion. It serves both eras on one endpoint (2026-07-28 and the 2025 sessions), with
CORS for the test page (the SDK does no CORS; a deployment in front of a browser adds it) and its
DNS-rebinding protection set to admit the test page's origin.

    python py_weather.py PAGE_ORIGIN

Prints `py-sdk-weather listening on http://127.0.0.1:PORT/mcp` once bound (any free port).
"""

import json
import socket
import sys
from typing import Annotated

import uvicorn
from mcp.server import MCPServer
from mcp.server.mcpserver import Context, ListRoots, Resolve, Sample
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import (
    Icon,
    Completion,
    CreateMessageResult,
    SamplingMessage,
    TextContent,
    CompletionArgument,
    CompletionContext,
    ListRootsResult,
    PromptReference,
    ResourceTemplateReference,
)
from pydantic import Field
from starlette.middleware.cors import CORSMiddleware

CONDITIONS = {"tokyo": "Sunny", "london": "Rainy", "paris": "Cloudy", "berlin": "Overcast"}

CITIES = [city.capitalize() for city in CONDITIONS]

# Icons a client must not fetch: plain http (a page could be tracked by it) and a script URL; and
# one it may show, a PNG as a data: URL (a 1x1 dot).
ICONS = [
    Icon(src="http://127.0.0.1:9/icon.png", mimeType="image/png"),
    Icon(src="javascript:alert(1)"),
    Icon(
        src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
        sizes=["1x1"],
    ),
]

mcp = MCPServer("py-sdk-weather", version="2.3.0", icons=ICONS)


@mcp.tool()
def get_weather(location: str) -> str:
    """Get the current weather for a city"""
    condition = CONDITIONS.get(location.lower())
    if condition is None:
        raise ValueError(f"Unknown city: {location}")
    return condition


def client_roots() -> ListRoots:
    """Asks the client for its roots."""
    return ListRoots()


@mcp.tool()
def shared_roots(roots: Annotated[ListRootsResult, Resolve(client_roots)]) -> str:
    """Names the roots the client shares (the server asks the client for them)"""
    listed = [str(root.uri) for root in roots.roots]
    return "The client shares " + (", ".join(listed) if listed else "no roots") + "."


def tip_request(location: str) -> Sample:
    """Asks the client's model for a packing tip for the city's weather."""
    condition = CONDITIONS.get(location.lower(), "unknown")
    question = f"The weather in {location} is {condition}. Write one packing tip."
    message = SamplingMessage(role="user", content=TextContent(type="text", text=question))
    return Sample([message], max_tokens=60, system_prompt="Answer in one short sentence.")


@mcp.tool()
def packing_tip(location: str, tip: Annotated[CreateMessageResult, Resolve(tip_request)]) -> str:
    """A packing tip for a city, written by the client's model (the server samples it)"""
    content = tip.content
    text = content.text if isinstance(content, TextContent) else "(no text)"
    return f"Packing tip for {location} (from {tip.model}): {text}"


@mcp.tool()
async def confirm_trip(location: str, ctx: Context) -> str:
    """Confirm a trip to a city: the user opens the booking page (URL-mode elicitation)"""
    page = f"https://booking.example.com/confirm?city={location}"
    answer = await ctx.elicit_url(f"Confirm your trip to {location} on the booking page", page, "trip-1")
    return f"The user answered {answer.action} to the booking page."


@mcp.resource("weather://cities", name="cities", mime_type="application/json")
def cities() -> str:
    """The cities this server knows"""
    return json.dumps(CITIES, separators=(",", ":"))


@mcp.resource("weather://city/{name}", name="city", mime_type="application/json")
def city(name: str) -> str:
    """The current weather in one city"""
    condition = CONDITIONS.get(name.lower())
    if condition is None:
        raise ResourceNotFoundError(f"Unknown city: {name}")
    weather = {"location": name.capitalize(), "condition": condition}
    return json.dumps(weather, separators=(",", ":"))


@mcp.prompt()
def weather_report(city: Annotated[str, Field(description='City name, e.g. "Tokyo"')]) -> str:
    """Ask for the weather in a city"""
    return f"What's the weather in {city}?"


@mcp.completion()
async def complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: CompletionArgument,
    context: CompletionContext | None,
) -> Completion | None:
    """City names for the template's `name` and the prompt's `city`: by prefix, any case."""
    if isinstance(ref, ResourceTemplateReference):
        wanted = ref.uri == "weather://city/{name}" and argument.name == "name"
    else:
        wanted = ref.name == "weather_report" and argument.name == "city"
    if not wanted:
        return None
    typed = argument.value.lower()
    return Completion(values=[c for c in CITIES if c.lower().startswith(typed)])


def main() -> None:
    origin = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"127.0.0.1:{port}"],
        allowed_origins=[origin],
    )
    app = mcp.streamable_http_app(transport_security=security)
    app = CORSMiddleware(
        app,
        allow_origins=[origin],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["*"],
        expose_headers=["mcp-session-id", "mcp-protocol-version"],
    )
    print(f"py-sdk-weather listening on http://127.0.0.1:{port}/mcp", flush=True)
    config = uvicorn.Config(app, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
