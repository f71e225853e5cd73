// The official TypeScript SDK client in Node doing the full exchange (initialize →
// initialized → tools/list → tools/call get_weather Tokyo → close) against a server, many
// times; prints the median and p95, for `cargo xtask bench`.
//
//   node bench/peers/ts-client.mjs URL [RUNS] [WARMUP]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, runs = '30', warmup = '3'] = process.argv.slice(2);
const times = [];
for (let i = 0; i < Number(runs) + Number(warmup); i++) {
  const started = performance.now();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  await client.listTools();
  const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Tokyo' } });
  if (result.content?.[0]?.text !== 'Sunny') throw new Error(`unexpected result ${JSON.stringify(result)}`);
  const ms = performance.now() - started;
  await transport.terminateSession().catch(() => {});
  await client.close();
  if (i >= Number(warmup)) times.push(ms);
}
times.sort((a, b) => a - b);
const pick = (p) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
console.log(`ts-client: median ${pick(50).toFixed(2)} ms, p95 ${pick(95).toFixed(2)} ms over ${times.length} runs`);
console.log(`node: median_ms=${pick(50).toFixed(3)} p95_ms=${pick(95).toFixed(3)} runs=${times.length}`);
