// The accuracy table (tests/fixtures/accuracy.json, the table of smollm/tests/accuracy.rs) on the
// WebAssembly build the page runs: the model's own worker (its SIMD kernels) in headless
// Chromium, driven through its messages (smollm-wire) with the same tools (the weather server's
// and the calculator's) and greedy decoding, and graded by the same rule as the native test.
//
//   node bench/smollm-accuracy.mjs --base URL
//
// Prints a line per miss and `smollm-page-accuracy: right=… total=… weather=… calc=… none=…
// turn_ms=…` (turn_ms: the median tool-call turn).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { launchChromium } from '../e2e/browser.mjs';

const { values: opt } = parseArgs({ options: { base: { type: 'string' } } });
if (!opt.base) {
  console.error('usage: smollm-accuracy.mjs --base URL');
  process.exit(2);
}
const fixture = (name) => JSON.parse(readFileSync(new URL(`../tests/fixtures/${name}`, import.meta.url)));
const table = fixture('accuracy.json');
const tools = [...fixture('weather-tools.json'), ...fixture('calc-tools.json')].map(
  ({ name, description, inputSchema }) => ({ name, description, inputSchema }),
);

/** The native test's rule: the expected tool, and each expected argument (strings ignoring case
 * and surrounding space, numbers as numbers). */
function right(row, outcome) {
  if (row.tool === null) return outcome === 'NoTool';
  const call = outcome?.Call;
  if (!call || call.name !== row.tool) return false;
  return Object.entries(row.arguments ?? {}).every(([k, want]) => {
    const got = call.arguments?.[k];
    if (typeof want === 'string') return typeof got === 'string' && got.trim().toLowerCase() === want.toLowerCase();
    return got === want;
  });
}

const browser = await launchChromium();
const page = await browser.newPage();
const origin = new URL(opt.base).origin;
await page.goto(`${origin}/`);
const model = `${origin}/models/${'SmolLM2-135M-Instruct.Q8_0.gguf'}`;
const results = await page.evaluate(
  async ({ model, table, tools }) => {
    const worker = new Worker('/smollm-worker_loader.js');
    const waiting = new Map();
    let ready;
    const loaded = new Promise((resolve, reject) => { ready = { resolve, reject }; });
    const send = (request) => worker.postMessage(JSON.stringify(request));
    worker.onmessage = (m) => {
      const event = JSON.parse(m.data);
      if (event === 'started') send({ load: { url: model } });
      else if (event.ready) ready.resolve(event.ready);
      else if (event.tool_turn) waiting.get(event.tool_turn.id)?.(event.tool_turn);
      else if (event.failed) {
        if (event.failed.id == null) ready.reject(new Error(event.failed.message));
        else waiting.get(event.failed.id)?.({ failed: event.failed.message });
      }
    };
    const info = await loaded;
    const out = [];
    for (const [i, row] of table.entries()) {
      const turn = await new Promise((resolve) => {
        waiting.set(i, resolve);
        send({ tool_call: { id: i, question: row.question, tools, system: null,
          sampling: { temperature: 0, seed: 0 } } });
      });
      out.push(turn);
    }
    worker.terminate();
    return { info, out };
  },
  { model, table, tools },
);
await browser.close();

const by = { weather: [0, 0], calc: [0, 0], none: [0, 0] };
let correct = 0;
const times = [];
for (const [i, row] of table.entries()) {
  const turn = results.out[i];
  if (turn.failed) throw new Error(`${row.question}: ${turn.failed}`);
  const ok = right(row, turn.outcome);
  correct += ok;
  times.push(turn.ms);
  const kind = row.tool === null ? 'none' : row.tool === 'get_weather' ? 'weather' : 'calc';
  by[kind][0] += ok;
  by[kind][1] += 1;
  if (!ok) console.log(`  miss: ${row.question} -> ${JSON.stringify(turn.outcome)}`);
}
const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
const part = (k) => `${by[k][0]}/${by[k][1]}`;
console.log(
  `smollm-page-accuracy: right=${correct} total=${table.length} weather=${part('weather')} ` +
    `calc=${part('calc')} none=${part('none')} turn_ms=${median.toFixed(0)} load_ms=${results.info.load_ms.toFixed(0)}`,
);
