// SmolLM2 in the page, in headless Chromium: the Tokyo run with the in-page model, first with an
// empty browser cache (the file downloaded from the server), then again after a reload (read back
// from the Cache API). Each round reads the figures the page itself measured, from the model's
// status line (`data-*` attributes): the load time, and for each turn its time, the time to its
// first token (the prompt read) and the tokens written.
//
//   node bench/smollm-page.mjs --base URL [--rounds 3]
//
// Prints `smollm-page: load_cold_ms=… load_cache_ms=… tool_turn_ms=… ttft_ms=… decode_tok_s=…`,
// the medians of the cached rounds for the turn figures.
import { parseArgs } from 'node:util';
import { launchChromium } from '../e2e/browser.mjs';

const { values: opt } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '3' },
  },
});
if (!opt.base) {
  console.error('usage: smollm-page.mjs --base URL [--rounds N]');
  process.exit(2);
}

const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const origin = new URL(opt.base).origin;
await context.route('**/*', (route) =>
  new URL(route.request().url()).origin === origin ? route.continue() : route.abort());
const page = await context.newPage();

async function round(n) {
  if (n === 0) await page.goto(`${opt.base}/?llm=smollm2&speed=instant&approve=auto`);
  else await page.reload();
  await page.waitForSelector('#mf-play', { state: 'visible' });
  await page.click('#mf-play');
  await page.waitForFunction(() => document.querySelector('#mf-answer')?.textContent.trim(), null, {
    timeout: 300_000,
  });
  const status = await page.$eval('#mf-smollm .mf-smollm-status', (p) => ({
    load: Number(p.dataset.loadMs),
    cache: p.dataset.fromCache === 'true',
    turns: JSON.parse(p.dataset.turns || '[]'),
    text: p.textContent,
  }));
  if (status.turns.length < 2) throw new Error(`round ${n}: fewer than two turns: ${status.text}`);
  const [tool, answer] = status.turns;
  const figures = {
    load_ms: status.load,
    from_cache: status.cache,
    tool_turn_ms: tool.ms,
    ttft_ms: tool.read_ms,
    answer_tokens: answer.tokens,
    decode_tok_s: (answer.tokens / (answer.ms - answer.read_ms)) * 1000,
  };
  console.log(`round ${n + 1}: ${JSON.stringify(figures)}`);
  return figures;
}

const runs = [];
for (let n = 0; n < Number(opt.rounds); n++) runs.push(await round(n));
await browser.close();
const cold = runs[0];
const cached = runs.slice(1);
if (cold.from_cache || cached.some((r) => !r.from_cache)) {
  throw new Error('the first round should download the model and the others read it from the cache');
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const of = (key) => median(cached.map((r) => r[key]));
console.log(
  `smollm-page: load_cold_ms=${cold.load_ms.toFixed(0)} load_cache_ms=${of('load_ms').toFixed(0)} ` +
    `tool_turn_ms=${of('tool_turn_ms').toFixed(0)} ttft_ms=${of('ttft_ms').toFixed(0)} ` +
    `decode_tok_s=${of('decode_tok_s').toFixed(1)} rounds=${runs.length}`,
);
