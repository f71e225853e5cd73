// The weather tool on the official TypeScript SDK's Streamable HTTP server (stateful, one
// transport per session, SSE responses), for `cargo xtask bench`. Plain node:http, no framework.
//
//   node bench/peers/ts-server.mjs PORT
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const CONDITIONS = { tokyo: 'Sunny', london: 'Rainy', paris: 'Cloudy' };

function weatherServer() {
  const server = new McpServer({ name: 'ts-weather', version: '1.0.0' });
  server.registerTool(
    'get_weather',
    { description: 'Get the current weather for a city', inputSchema: { location: z.string() } },
    async ({ location }) => {
      const condition = CONDITIONS[location.toLowerCase()];
      return condition
        ? { content: [{ type: 'text', text: condition }] }
        : { content: [{ type: 'text', text: `Unknown city: ${location}` }], isError: true };
    },
  );
  return server;
}

const transports = new Map();
const port = Number(process.argv[2] ?? 0);
const http = createServer(async (req, res) => {
  if (!req.url.startsWith('/mcp')) {
    res.writeHead(404).end();
    return;
  }
  const id = req.headers['mcp-session-id'];
  let transport = id ? transports.get(id) : undefined;
  if (!transport) {
    if (id || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => transports.set(sid, transport),
    });
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
    await weatherServer().connect(transport);
  }
  await transport.handleRequest(req, res);
});
http.listen(port, '127.0.0.1', () => {
  console.log(`ts-server listening on http://127.0.0.1:${http.address().port}/mcp`);
});
