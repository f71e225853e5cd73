// End-to-end tests of the shipped build: the release app served by `weather-server --static`,
// driven in Debian's headless Chromium through playwright-core (no browser download).
//
//   node e2e/suite.mjs --base http://127.0.0.1:PORT --out DIR [--only NAME]
//
// Each scenario opens a fresh page, drives it as a user would and checks what the page shows.
// Screenshots of the finished runs go to DIR (finished-run.png is the README's screenshot).
// Exits 1 if any scenario fails. playwright-core is resolved normally, else from the project's
// tools folder ($MCP_FLOW_TOOLS, default ~/.cache/mcp-flow) where `cargo xtask test` installs it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from './browser.mjs';

const { values: opt } = parseArgs({
  options: { base: { type: 'string' }, out: { type: 'string' }, only: { type: 'string' } },
});
if (!opt.base || !opt.out) {
  console.error('usage: suite.mjs --base URL --out DIR [--only NAME]');
  process.exit(2);
}

const browser = await launchChromium();

function check(cond, message) {
  if (!cond) throw new Error(message);
}

const rows = (page) =>
  page.$$eval('g[data-row]', (gs) =>
    Object.fromEntries(gs.map((g) => [g.dataset.row, g.dataset.state])),
  );

const answer = async (page) => ((await page.textContent('#mf-answer')) ?? '').trim();

/** Waits for the answer; a failed row fails the scenario with the page's error line. */
async function finished(page, timeout = 20_000) {
  await page.waitForFunction(
    () =>
      document.querySelector('#mf-answer')?.textContent.trim().length > 0 ||
      document.querySelector('g[data-row][data-state="failed"]') !== null,
    null,
    { timeout },
  );
  if (await page.$('g[data-row][data-state="failed"]')) {
    throw new Error(`a row failed: ${await page.textContent('#mf-error')}`);
  }
}

/** Every row ended done, except the ones listed as skipped. */
async function allDone(page, skipped) {
  const states = await rows(page);
  check(Object.keys(states).length === 23, `expected 23 rows, got ${Object.keys(states).length}`);
  for (const [id, state] of Object.entries(states)) {
    const want = skipped.includes(id) ? 'skipped' : 'done';
    check(state === want, `row ${id}: ${state}, expected ${want}`);
  }
}

/** Presses → until `done()` holds (at most `max` presses). */
async function stepUntil(page, done, max = 80) {
  for (let i = 0; i < max && !(await done()); i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(40);
  }
}

const instant = 'speed=instant&approve=auto&autoplay';

const scenarios = {
  async 'play a full run'(page) {
    await page.goto(`${opt.base}/?${instant}#d2-8`);
    await finished(page);
    await allDone(page, ['d2-4', 'd2-5']);
    check((await answer(page)) === 'The weather in Tokyo is sunny.', `answer: ${await answer(page)}`);
    // The deep-linked row stays selected: its result is in the inspector.
    const selected = await page.getAttribute('g[data-row="d2-8"]', 'class');
    check(selected?.includes('selected'), `d2-8 is not selected: ${selected}`);
    await page.screenshot({ path: join(opt.out, 'finished-run.png'), fullPage: true });
  },

  async 'step mode with the keyboard sends nothing early'(page) {
    await page.goto(`${opt.base}/?mode=step&approve=auto&speed=instant`);
    await page.waitForSelector('g[data-row="d1-1"]');
    await stepUntil(page, async () => (await rows(page))['d2-3'] === 'done');
    const s = await rows(page);
    check(s['d2-3'] === 'done', `stepping did not reach d2-3: ${s['d2-3']}`);
    check(s['d2-7'] === 'pending', `tools/call ran before its row: d2-7 ${s['d2-7']}`);
    await stepUntil(page, async () => (await answer(page)).length > 0);
    check((await answer(page)) === 'The weather in Tokyo is sunny.', `answer: ${await answer(page)}`);
  },

  async 'declining the tool call'(page) {
    await page.goto(`${opt.base}/?speed=instant&approve=ask&autoplay`);
    await page.waitForSelector('#mf-no', { timeout: 20_000 });
    const title = await page.textContent('#mf-dialog-title');
    check(title.includes('get_weather'), `dialog title: ${title}`);
    await page.click('#mf-no');
    await finished(page);
    const s = await rows(page);
    for (const id of ['d2-6', 'd2-7', 'd2-8']) check(s[id] === 'skipped', `${id}: ${s[id]}`);
    check(s['d2-5'] === 'done', `d2-5: ${s['d2-5']}`);
    check((await answer(page)).includes('declined'), `answer: ${await answer(page)}`);
  },

  async 'chinese mode'(page) {
    await page.goto(`${opt.base}/?lang=zh&${instant}`);
    await finished(page);
    await allDone(page, ['d2-4', 'd2-5']);
    check((await answer(page)) === '东京的天气是晴天。', `answer: ${await answer(page)}`);
    check((await page.textContent('figure')).includes('内置离线模型'), 'the LLM subtitle is not Chinese');
  },

  async 'a deep link reproduces the same view'(page) {
    const q = encodeURIComponent('How is the weather in Paris?');
    const link = `${opt.base}/?q=${q}&${instant}#d2-3`;
    const view = async (p) => {
      await p.goto(link);
      await finished(p);
      return {
        answer: await answer(p),
        rows: await rows(p),
        question: await p.inputValue('#mf-question'),
        selected: await p.getAttribute('g[data-row="d2-3"]', 'class'),
      };
    };
    const first = await view(page);
    const other = await page.context().newPage();
    const second = await view(other);
    await other.close();
    check(first.answer.startsWith('The weather in Paris is'), `answer: ${first.answer}`);
    check(first.question === 'How is the weather in Paris?', `question: ${first.question}`);
    check(JSON.stringify(first) === JSON.stringify(second), 'the same link gave another view');
  },

  async 'the calculator server'(page) {
    await page.goto(`${opt.base}/?server=${encodeURIComponent(`${opt.base}/calc`)}&${instant}`);
    await finished(page);
    await allDone(page, ['d2-4', 'd2-5']);
    const question = await page.inputValue('#mf-question');
    check(question === 'What is 3 times 111?', `question: ${question}`);
    check((await answer(page)).includes('333'), `answer: ${await answer(page)}`);
    await page.screenshot({ path: join(opt.out, 'calculator.png'), fullPage: true });
  },

  async 'the Content-Security-Policy forbids inline script and the app runs under it'(page) {
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto(`${opt.base}/?${instant}`);
    await finished(page);
    // A response header, not a meta tag (so `trunk serve` can send its own for live reload).
    const policy = response.headers()['content-security-policy'];
    check(policy?.includes("script-src 'self' 'wasm-unsafe-eval';"), `policy: ${policy}`);
    check(!/script-src[^;]*unsafe-inline/.test(policy), `inline script allowed: ${policy}`);
    check((await page.$('meta[http-equiv="Content-Security-Policy"]')) === null, 'a meta policy is back');
    check((await page.evaluate(() => window.__violations)).length === 0,
      `violations during a run: ${await page.evaluate(() => window.__violations.join('; '))}`);
    // An injected inline script does not run.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.head.append(s);
    });
    await page.waitForTimeout(100);
    check((await page.evaluate(() => window.__inline)) === undefined, 'an inline script ran');
    check((await page.evaluate(() => window.__violations)).length === 1, 'the blocked script was not reported');
  },

  async 'export JSON, HAR and Mermaid, then import the recording'(page) {
    await page.goto(`${opt.base}/?${instant}`);
    await finished(page);
    const save = async (button) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      const path = join(opt.out, download.suggestedFilename());
      await download.saveAs(path);
      return { path, text: readFileSync(path, 'utf8') };
    };
    const json = await save('#mf-export-json');
    const rec = JSON.parse(json.text);
    check(rec.format === 'mcp-flow-recording' && rec.version === 2, `recording envelope: ${rec.format} v${rec.version}`);
    check(rec.run.mcp.exchanges.some((x) => x.rpc_method === 'tools/call'), 'no tools/call in the JSON');
    const har = JSON.parse((await save('#mf-export-har')).text);
    check(har.log.version === '1.2', 'HAR version');
    check(har.log.entries.some((e) => e.request.postData?.text.includes('tools/call')), 'HAR lacks tools/call');
    check(har.log.entries.every((e) => !Number.isNaN(Date.parse(e.startedDateTime))), 'HAR dates');
    const mmd = (await save('#mf-export-mermaid')).text;
    check(mmd.includes('```mermaid\nsequenceDiagram\n'), 'Mermaid block');
    check(mmd.includes('{"location":"Tokyo"}'), 'Mermaid lacks the real arguments');

    // A fresh page loads the recording: labelled, same rows and answer, nothing sent.
    const fresh = await page.context().newPage();
    const sent = [];
    fresh.on('request', (r) => { if (r.method() === 'POST') sent.push(r.url()); });
    await fresh.goto(`${opt.base}/`);
    await fresh.setInputFiles('#mf-import', json.path);
    await fresh.waitForSelector('#mf-recording');
    check((await answer(fresh)) === 'The weather in Tokyo is sunny.', `imported answer: ${await answer(fresh)}`);
    check(JSON.stringify(await rows(fresh)) === JSON.stringify(await rows(page)), 'imported rows differ');
    check(sent.length === 0, `the recording sent requests: ${sent.join(', ')}`);
    await fresh.close();
  },
};

let failures = 0;
let ran = 0;
for (const [name, run] of Object.entries(scenarios)) {
  if (opt.only && !name.includes(opt.only)) continue;
  ran++;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const started = Date.now();
  try {
    await run(page);
    check(errors.length === 0, `page errors: ${errors.join('; ')}`);
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    failures++;
    console.error(`FAIL ${name}: ${err.message}`);
    const shot = join(opt.out, `failed-${name.replace(/\W+/g, '-')}.png`);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
  }
  await context.close();
}
await browser.close();
console.log(`e2e: ${ran - failures} passed, ${failures} failed`);
process.exit(failures || ran === 0 ? 1 : 0);
