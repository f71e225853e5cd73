// First load of a web app in headless Chromium: what it downloads (each same-origin response,
// gzipped at level 9, summed) and when it becomes interactive (navigation start until the
// ready selector is visible and enabled), median over several cold loads.
//
//   node bench/web.mjs --url URL --ready SELECTOR [--runs 7] [--name NAME]
//
// Requests to any other host are blocked (this machine reaches none), so the figures are the
// app's own bytes. Prints `web: name=… bytes_gz=… files=… tti_ms=…`.
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { launchChromium } from '../e2e/browser.mjs';

const { values: opt } = parseArgs({
  options: {
    url: { type: 'string' },
    ready: { type: 'string' },
    runs: { type: 'string', default: '7' },
    name: { type: 'string', default: 'app' },
  },
});
if (!opt.url || !opt.ready) {
  console.error('usage: web.mjs --url URL --ready SELECTOR [--runs N] [--name NAME]');
  process.exit(2);
}

const browser = await launchChromium();
const origin = new URL(opt.url).origin;

async function load() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route('**/*', (route) =>
    new URL(route.request().url()).origin === origin ? route.continue() : route.abort());
  const page = await context.newPage();
  const bodies = [];
  page.on('response', (r) => {
    const u = new URL(r.url());
    // The Inspector's calls to its own backend API are not part of its bundle.
    if (u.origin === origin && !u.pathname.startsWith('/api/')) bodies.push(r.body().then((b) => ({ url: r.url(), b })).catch(() => null));
  });
  await page.goto(opt.url);
  await page.waitForSelector(opt.ready, { state: 'visible', timeout: 30_000 });
  await page.waitForFunction((sel) => !document.querySelector(sel)?.disabled, opt.ready);
  const tti = await page.evaluate(() => performance.now());
  await page.waitForLoadState('networkidle');
  const files = (await Promise.all(bodies)).filter(Boolean);
  const gz = files.reduce((sum, f) => sum + gzipSync(f.b, { level: 9 }).length, 0);
  const raw = files.reduce((sum, f) => sum + f.b.length, 0);
  await context.close();
  return { tti, gz, raw, files: files.map((f) => new URL(f.url).pathname) };
}

const runs = [];
for (let i = 0; i < Number(opt.runs); i++) runs.push(await load());
await browser.close();
const ttis = runs.map((r) => r.tti).sort((a, b) => a - b);
const median = ttis[Math.floor(ttis.length / 2)];
const last = runs[runs.length - 1];
console.log(`${opt.name}: ${last.files.length} files, ${last.raw} B raw, ${last.gz} B gzipped; interactive after ${median.toFixed(0)} ms (median of ${runs.length})`);
console.log(`  files: ${last.files.join(' ')}`);
console.log(`web: name=${opt.name} bytes_gz=${last.gz} bytes_raw=${last.raw} files=${last.files.length} tti_ms=${median.toFixed(1)}`);
