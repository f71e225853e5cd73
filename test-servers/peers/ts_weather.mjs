// The seeds' weather tool on the official TypeScript SDK v2 (`@modelcontextprotocol/server`),
// served by its fetch-style `createMcpHandler` behind a few lines of `node:http` glue, with CORS
// for the test page (the SDK does no CORS; a deployment in front of a browser adds it). Both eras
// on one endpoint: 2026-07-28 natively, 2025-era requests through the SDK's stateless fallback.
//
//   node ts_weather.mjs [--reject-legacy]
//
// Prints `ts-sdk-weather listening on http://127.0.0.1:PORT/mcp` once bound (port 0: any free).
import http from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

const CONDITIONS = { tokyo: 'Sunny', london: 'Rainy', paris: 'Cloudy', berlin: 'Overcast' };

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
