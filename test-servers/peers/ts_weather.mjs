// The seeds' weather tool on the official TypeScript SDK v2 (`@modelcontextprotocol/server`), plus
// the resource `weather://cities`, the template `weather://city/{name}` and the prompt
// `weather_report`, both with city-name completion; served by its fetch-style `createMcpHandler`
// behind a few lines of `node:http` glue, with CORS for the test page (the SDK does no CORS; a
// deployment in front of a browser adds it). Both eras on one endpoint: 2026-07-28 natively,
// 2025-era requests through the SDK's stateless fallback.
//
//   node ts_weather.mjs [--reject-legacy]
//
// Prints `ts-sdk-weather listening on http://127.0.0.1:PORT/mcp` once bound (port 0: any free).
import http from 'node:http';
import {
  completable,
  createMcpHandler,
  McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

const CONDITIONS = { tokyo: 'Sunny', london: 'Rainy', paris: 'Cloudy', berlin: 'Overcast' };
const CITIES = Object.keys(CONDITIONS).map((city) => city[0].toUpperCase() + city.slice(1));

/** The city names starting with what was typed, case-insensitively. */
function completeCity(value) {
  const typed = (value ?? '').toLowerCase();
  return CITIES.filter((city) => city.toLowerCase().startsWith(typed));
}

function factory() {
  const server = new McpServer({ name: 'ts-sdk-weather', version: '2.4.0' });
  server.registerTool(
    'get_weather',
    {
      description: 'Get the current weather for a city',
      inputSchema: { location: z.string().describe('City name, e.g. "Tokyo"') },
    },
    async ({ location }) => {
      const condition = CONDITIONS[location.toLowerCase()];
      if (!condition) {
        return { content: [{ type: 'text', text: `Unknown city: ${location}` }], isError: true };
      }
      return { content: [{ type: 'text', text: condition }] };
    },
  );
  server.registerResource(
    'cities',
    'weather://cities',
    { description: 'The cities this server knows', mimeType: 'application/json' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(CITIES) }],
    }),
  );
  server.registerResource(
    'city',
    new ResourceTemplate('weather://city/{name}', {
      list: undefined,
      complete: { name: completeCity },
    }),
    { description: 'The current weather in one city', mimeType: 'application/json' },
    async (uri, { name }) => {
      const typed = decodeURIComponent(Array.isArray(name) ? name[0] : name);
      const condition = CONDITIONS[typed.toLowerCase()];
      if (!condition) throw new ResourceNotFoundError(uri.href, `Unknown city: ${typed}`);
      const location = CITIES.find((city) => city.toLowerCase() === typed.toLowerCase());
      const text = JSON.stringify({ location, condition });
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );
  server.registerPrompt(
    'weather_report',
    {
      description: 'Ask for the weather in a city',
      argsSchema: z.object({
        city: completable(z.string().describe('City name, e.g. "Tokyo"'), completeCity),
      }),
    },
    ({ city }) => ({
      messages: [
        { role: 'user', content: { type: 'text', text: `What's the weather in ${city}?` } },
      ],
    }),
  );
  return server;
}

const legacy = process.argv.includes('--reject-legacy') ? 'reject' : 'stateless';
const handler = createMcpHandler(factory, { legacy });

function cors(req, res) {
  const origin = req.headers.origin;
  if (origin) res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  const asked = req.headers['access-control-request-headers'];
  if (asked) res.setHeader('Access-Control-Allow-Headers', asked);
  res.setHeader('Access-Control-Expose-Headers', 'mcp-session-id, mcp-protocol-version');
}

const server = http.createServer(async (req, res) => {
  cors(req, res);
  if (req.method === 'OPTIONS') {
    res.writeHead(204).end();
    return;
  }
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    });
    const response = await handler.fetch(request);
    const out = {};
    response.headers.forEach((value, name) => (out[name] = value));
    res.writeHead(response.status, out);
    if (response.body) {
      for await (const chunk of response.body) res.write(chunk);
    }
    res.end();
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
  }
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`ts-sdk-weather listening on http://127.0.0.1:${port}/mcp`);
});
