// Screenshot of a finished MCP Flow run, for the README.
//
//   node e2e/screenshot.mjs --url URL --out FILE [--width 1280] [--height 800] [--full-page]
//
// Waits until #mf-answer has text, checks that every diagram row ended as
// done or skipped, then saves the screenshot. Exits 1 on any failure.
// playwright-core is resolved normally, else from the project's tools folder
// ($MCP_FLOW_TOOLS, default ~/.cache/mcp-flow) where `cargo xtask test` installs it.
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: {
    url: { type: 'string' },
    out: { type: 'string' },
    width: { type: 'string', default: '1280' },
    height: { type: 'string', default: '800' },
    'full-page': { type: 'boolean', default: false },
  },
});
if (!opt.url || !opt.out) {
  console.error('usage: screenshot.mjs --url URL --out FILE [--width N --height N] [--full-page]');
  process.exit(2);
}

async function loadPlaywright() {
  try {
    return await import('playwright-core');
  } catch {
    const tools = process.env.MCP_FLOW_TOOLS ?? join(homedir(), '.cache/mcp-flow');
    const cache = join(tools, 'npm/package.json');
    return createRequire(cache)('playwright-core');
  }
}

const { chromium } = await loadPlaywright();
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
    '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync',
  ],
});

let failed = false;
try {
  const page = await browser.newPage({
    viewport: { width: Number(opt.width), height: Number(opt.height) },
  });
  const pageErrors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') console.error(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => {
    pageErrors.push(err);
    console.error(`page error: ${err.message}`);
  });

  await page.goto(opt.url);
  await page
    .waitForFunction(
      // Done when the answer shows; stop early once a row has failed.
      () =>
        document.querySelector('#mf-answer')?.textContent.trim().length > 0 ||
        document.querySelector('g[data-row][data-state="failed"]') !== null,
      null,
      { timeout: 20_000 },
    )
    .catch(() => {
      console.error('no answer in #mf-answer within 20 s');
      failed = true;
    });

  const rows = await page.$$eval('g[data-row]', (gs) =>
    gs.map((g) => ({ id: g.dataset.row, state: g.dataset.state })),
  );
  const bad = rows.filter((r) => r.state !== 'done' && r.state !== 'skipped');
  if (rows.length === 0) {
    console.error('no g[data-row] rows found');
    failed = true;
  }
  for (const r of bad) console.error(`row ${r.id}: ${r.state}`);
  if (bad.length > 0) failed = true;
  if (pageErrors.length > 0) failed = true;

  if (!failed) {
    await page.screenshot({ path: opt.out, fullPage: opt['full-page'] });
    const answer = (await page.textContent('#mf-answer')).trim();
    const skipped = rows.filter((r) => r.state === 'skipped').length;
    console.log(`screenshot: ${opt.out}`);
    console.log(`answer: ${answer}`);
    console.log(`rows: ${rows.length - skipped} done, ${skipped} skipped`);
  }
} catch (err) {
  console.error(err.message);
  failed = true;
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
