// What every scenario reads: the suite's options (the servers the test command started, the
// screenshot folder), need() for a server's URL (or the reason it is missing), and check().
import { parseArgs } from 'node:util';
import { servers, unavailable } from '../runner.mjs';

export const { values: opt } = parseArgs({
  options: {
    base: { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
    faulty: { type: 'string' },
    foreign: { type: 'string' },
    'llama-base': { type: 'string' },
    everything: { type: 'string' },
    'url-elicitation': { type: 'string' },
    'basic-app': { type: 'string' },
    // The Python SDK server whose apps try to get more than the user allowed.
    'hostile-apps': { type: 'string' },
    // The HTTP+SSE example's URL and the bridge's URL for it, space-separated.
    'sse-example': { type: 'string' },
    // The TypeScript SDK's Streamable HTTP example (no CORS), bare and behind its demo OAuth server.
    'ts-streamable': { type: 'string' },
    'ts-oauth': { type: 'string' },
    // Bridges that watch a host: `HTTP_ENDPOINT STDIO_ENDPOINT BRIDGE PYTHON TS_CLIENT STDIO_SERVER`.
    watch: { type: 'string' },
    'auth-base': { type: 'string' },
    'oidc-base': { type: 'string' },
    'oidc-client': { type: 'string' },
    // The protected servers' access-token lifetime.
    'token-secs': { type: 'string', default: '4' },
    unavailable: { type: 'string', multiple: true, default: [] },
    // Areas run side by side (e2e/runner.mjs); one lane unless asked, the order and timing the
    // suite's CI runs have passed with (docs/testing.md).
    jobs: { type: 'string', default: '1' },
    list: { type: 'boolean', default: false },
  },
});
if (!opt.list && !opt.out) {
  console.error('usage: suite.mjs --base URL --out DIR [--only NAME] [--unavailable NAME=WHY]... | --list');
  process.exit(2);
}

/** The URL of a server option; a scenario that reads one the test command could not start
 * fails, saying why (e2e/runner.mjs). */
export const need = servers(opt, unavailable(opt.unavailable));

export function check(cond, message) {
  if (!cond) throw new Error(message);
}
