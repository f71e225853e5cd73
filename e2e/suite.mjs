// End-to-end tests of the shipped build: the release app served by `weather-server --static`,
// driven in Debian's headless Chromium through playwright-core (no browser download).
//
//   node e2e/suite.mjs --base http://127.0.0.1:PORT --out DIR [--faulty URL] [--auth-base URL]
//                      [--llama-base URL] [--everything URL]
//                      [--oidc-base URL --oidc-client ID] [--only NAME]
//                      [--unavailable NAME=WHY]... [--list]
//
// --auth-base is the same app served by `weather-server --auth` (a protected resource with its
// demo authorization server and consent page); the authorization scenario needs it.
// --oidc-base is the app served by `weather-server --auth --auth-issuer` in front of
// oidc-provider (e2e/oidc-provider.mjs), where ID is the client pre-registered there.
// --llama-base is llama.cpp's llama-server serving SmolLM2 (OpenAI-compatible, greedy).
// --everything is the reference server-everything (2025-11-25 tasks) through mcp-flow-bridge http.
// --faulty is the base URL of `mcp-flow-test-servers faulty` (a server that breaks the protocol
// on purpose); the scenarios that need it fail without it.
// --unavailable NAME=WHY says that the server an option names (base, auth-base, oidc-base,
// faulty, everything, llama-base) could not be started, and why: every scenario that uses it
// fails with that reason, the others run. --list prints the scenarios' names and their count.
//
// Each scenario opens a fresh page, drives it as a user would and checks what the page shows.
// Screenshots go to DIR: finished-run.png (the README's screenshot), player-1280.png (a Play run
// following its current row) and player-390.png (a phone), among others.
// Exits 1 if any scenario fails. playwright-core is resolved normally, else from the project's
// tools folder ($MCP_FLOW_TOOLS, default ~/.cache/mcp-flow) where `cargo xtask test` installs it.
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from './browser.mjs';
import { runAll, servers, unavailable } from './runner.mjs';

const { values: opt } = parseArgs({
  options: {
    base: { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
    faulty: { type: 'string' },
    'llama-base': { type: 'string' },
    everything: { type: 'string' },
    'auth-base': { type: 'string' },
    'oidc-base': { type: 'string' },
    'oidc-client': { type: 'string' },
    // The protected servers' access-token lifetime.
    'token-secs': { type: 'string', default: '4' },
    unavailable: { type: 'string', multiple: true, default: [] },
    list: { type: 'boolean', default: false },
  },
});
if (!opt.list && !opt.out) {
  console.error('usage: suite.mjs --base URL --out DIR [--only NAME] [--unavailable NAME=WHY]... | --list');
  process.exit(2);
}

/** The URL of a server option; a scenario that reads one the test command could not start
 * fails, saying why (e2e/runner.mjs). */
const need = servers(opt, unavailable(opt.unavailable));

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

/** The names of the split wasm modules (xtask/src/split.rs) the page fetches, as it fetches them. */
const pieces = (page) => {
  const seen = [];
  page.on('request', (r) => {
    const name = r.url().split('/').pop();
    if (/^(split|chunk)_[^/]*\.wasm$/.test(name)) seen.push(name);
  });
  return seen;
};

/** The era the page says it speaks (`data-era` on the root element). */
const era = (page) => page.evaluate(() => document.documentElement.dataset.era ?? null);

/** The rows the eras add that a plain run skips: the server asked no question; in the legacy
 * era fixed by the link, no modern probe either. */
const QUESTION_ROWS = ['d2-elicit', 'd2-elicit-ask', 'd2-elicit-answer', 'd2-elicit-reply'];
const PROBE_ROWS = ['d1-discover', 'd1-discover-result'];

/** Every row ended done, except the ones listed as skipped (and the era's unused rows). */
async function allDone(page, skipped) {
  const states = await rows(page);
  const spoken = await era(page);
  // The seeds' 23 rows and the 6 added (probe, question); 2026-07-28 draws 26 (no handshake).
  const expected = spoken === 'modern' ? 26 : 29;
  check(Object.keys(states).length === expected,
    `expected ${expected} rows in the ${spoken} era, got ${Object.keys(states).length}`);
  const skip = [...skipped, ...QUESTION_ROWS, ...(spoken === 'legacy' ? PROBE_ROWS : [])];
  for (const [id, state] of Object.entries(states)) {
    const want = skip.includes(id) ? 'skipped' : 'done';
    check(state === want, `row ${id}: ${state}, expected ${want}`);
  }
}

/** Opens the settings panel unless it is open (it is on a wide screen). */
async function openSettings(page) {
  await page.waitForSelector('#mf-settings-panel', { state: 'attached' });
  if (!(await page.evaluate(() => document.querySelector('#mf-settings-panel').open))) {
    await page.click('#mf-settings-panel > summary');
  }
}

/** The JSON-RPC methods the page POSTs, in order, as it sends them. */
function rpcMethods(page) {
  const methods = [];
  page.on('request', (r) => {
    const m = /"method":"([^"]+)"/.exec(r.method() === 'POST' ? r.postData() ?? '' : '');
    if (m) methods.push(m[1]);
  });
  return methods;
}

/** Answers the server's Springfield question with Illinois, which the form must offer. */
async function answerIllinois(page, spoken) {
  const options = await page.$$eval('.mf-form select option', (os) => os.map((o) => o.value));
  const illinois = options.find((v) => v.includes('Illinois'));
  check(illinois, `${spoken}: Illinois is not offered: ${options}`);
  await page.selectOption('.mf-form select', illinois);
  await page.click('#mf-form-send');
}

/** Presses → until `done()` holds (at most `max` presses). */
async function stepUntil(page, done, max = 80) {
  for (let i = 0; i < max && !(await done()); i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(40);
  }
}

/** An instant run in the seeds' era (2025-11-25); the 2026-07-28 scenarios set their own. */
const instant = 'speed=instant&approve=auto&autoplay&era=legacy';

/** Where an element is, against the part of the viewport below the sticky player bar. */
const placement = (page, selector) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const bar = document.querySelector('.mf-player').getBoundingClientRect().bottom;
    const inView = r.top >= Math.max(0, bar) - 1 && r.bottom <= innerHeight + 1 &&
      r.left >= -1 && r.right <= innerWidth + 1 && r.height + r.width > 0;
    return { top: r.top, bottom: r.bottom, bar, inView, scrollY };
  }, selector);

/**
 * Records, on every change of the selected row, where the row that was selected until then had
 * its arrow: the player should have brought it into view during its time as the current row.
 */
function recordFollowing() {
  window.__follow = [];
  let current = null;
  const sample = (id) => {
    const arrow = document.querySelector(`.mf-row[data-row="${id}"] .mf-arrow`);
    const bar = document.querySelector('.mf-player')?.getBoundingClientRect().bottom ?? 0;
    const r = arrow.getBoundingClientRect();
    window.__follow.push({
      id, top: Math.round(r.top), bottom: Math.round(r.bottom), bar: Math.round(bar),
      inView: r.top >= Math.max(0, bar) - 1 && r.bottom <= innerHeight + 1,
    });
  };
  window.__sampleFollow = () => current && sample(current);
  new MutationObserver(() => {
    const id = document.querySelector('.mf-row.mf-selected')?.dataset.row ?? null;
    if (id !== current) {
      if (current) sample(current);
      current = id;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
}

/** Waits until the page has stopped scrolling (10 frames without a change). */
/** scrollY once it has stopped changing (two readings 200 ms apart agree). */
async function restingScroll(page) {
  let last = await page.evaluate(() => scrollY);
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(200);
    const now = await page.evaluate(() => scrollY);
    if (now === last) return now;
    last = now;
  }
  return last;
}

const scrolled = (page) =>
  page.evaluate(() => new Promise((done) => {
    let last = scrollY;
    let still = 0;
    const frame = () => {
      still = scrollY === last ? still + 1 : 0;
      last = scrollY;
      if (still >= 10) done(); else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }));

/** Visible words of the page's own chrome (header, player, settings, export, footer). */
const chromeText = (page) =>
  page.evaluate(() =>
    ['.mf-header', '.mf-player', '.mf-settings-panel', '.mf-share', '.mf-answer', '.mf-footer',
      '.mf-inspector']
      .map((sel) => document.querySelector(sel)?.innerText ?? '')
      .join('\n'));

/** How the user approves in the popup, per authorization server. */
const approvers = {
  /** weather-server's own consent page. */
  async builtin(popup, shot) {
    await popup.waitForSelector('button[value=approve]', { timeout: 20_000 });
    if (shot) await popup.screenshot({ path: join(opt.out, 'consent.png') });
    await popup.click('button[value=approve]');
  },
  /** oidc-provider's own pages: a login (any name and password) the first time, then consent;
   * where its grant already covers the request it asks nothing and the popup comes back. */
  async oidc(popup, shot, closed) {
    const page = { state: 'attached', timeout: 20_000 };
    const asked = await Promise.race([closed.then(() => false),
      popup.waitForSelector('input[name=prompt]', page).then(() => true)]);
    if (!asked) return;
    if (await popup.$('input[name=login]')) {
      await popup.fill('input[name=login]', 'ada');
      await popup.fill('input[name=password]', 'any');
      await popup.click('button[type=submit]');
    }
    await popup.waitForSelector('input[name=prompt][value=consent]', page);
    if (shot) await popup.screenshot({ path: join(opt.out, 'consent-oidc.png') });
    await popup.click('button[type=submit]');
  },
};

/** A Tokyo run against a protected server in `era`: two authorizations (the first request's
 * 401, then get_weather's 403 step-up), each approved in a popup on the authorization server's
 * pages. `server` is `builtin` (weather-server --auth) or `oidc` (oidc-provider in front). */
async function authorizedTokyo(page, era, server = 'builtin') {
  const base = server === 'oidc' ? need('oidc-base') : need('auth-base');
  // Every secret the authorization server hands out, read off the wire, to look for later.
  const secrets = [];
  page.context().on('response', async (response) => {
    const location = response.headers().location ?? '';
    const code = /[?&]code=([^&]+)/.exec(location);
    if (code) secrets.push(decodeURIComponent(code[1]));
    if (/\/token$/.test(new URL(response.url()).pathname) && response.request().method() === 'POST') {
      const body = await response.json().catch(() => ({}));
      for (const key of ['access_token', 'refresh_token']) if (body[key]) secrets.push(body[key]);
    }
  });
  const fetched = pieces(page);
  await page.goto(`${base}/?speed=instant&approve=auto&era=${era}`);
  if (server === 'oidc') {
    // oidc-provider takes no registration from a page: the client pre-registered there.
    // In the settings (open on a wide screen), under "Request headers and authorization".
    await openSettings(page);
    if (!(await page.isVisible('#mf-client-id'))) await page.click('#mf-advanced > summary');
    await page.fill('#mf-client-id', opt['oidc-client']);
  }
  await page.click('#mf-play');
  for (const round of [1, 2]) {
    await page.waitForSelector('#mf-auth-open', { timeout: 20_000 });
    // The OAuth flow's module comes when the server first asks for authorization.
    check(fetched.some((n) => n.startsWith('split_authorize')), `round ${round}: the flow's module: ${fetched}`);
    const request = await page.textContent('.mf-auth-url');
    check(/code_challenge_method=S256/.test(request) && /[?&]state=/.test(request),
      `round ${round}: the authorization request lacks PKCE or state: ${request}`);
    check(/[?&]resource=/.test(request), `round ${round}: no resource indicator in ${request}`);
    // The scope the server named (offline_access joins it where the server lists it).
    const scope = (new URL(request).searchParams.get('scope') ?? '').split(' ')
      .filter((name) => name !== 'offline_access').sort().join(' ');
    check(scope === (round === 1 ? 'mcp:basic' : 'mcp:basic weather:read'), `round ${round}: scope in ${request}`);
    check(server === 'oidc' || !request.includes('offline_access'), `round ${round}: offline_access in ${request}`);
    if (server === 'oidc') {
      check(request.includes(`client_id=${opt['oidc-client']}`), `round ${round}: client in ${request}`);
    }
    // The user's click opens the popup; the user approves on the authorization server's pages.
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#mf-auth-open')]);
    const closed = popup.waitForEvent('close', { timeout: 30_000 });
    // The authorization server's page gets no handle on the page that opened it.
    const opener = await popup.waitForURL((url) => url.protocol !== 'about:', { timeout: 20_000 })
      .then(() => popup.evaluate(() => window.opener === null))
      .catch(() => 'closed'); // oidc-provider may come straight back and close it
    check(opener === true || (server === 'oidc' && opener === 'closed'),
      `round ${round}: the authorization server's page sees window.opener (${opener})`);
    await approvers[server](popup, round === 1 && era === 'modern', closed);
    // Back on the page's origin with the code, the page reads it and closes the popup.
    await closed;
    await page.waitForSelector('#mf-auth-open', { state: 'detached', timeout: 20_000 });
  }
  await finished(page);
  check(/sunny/i.test(await answer(page)), `${era}: ${await answer(page)}`);
  const states = await rows(page);
  for (const row of ['a-1', 'a-2', 'a-3', 'a-4', 'a-5', 'a-8', 'a-9', 'a-10', 'a-11', 'a-12', 'a-13']) {
    check(states[row] === 'done', `${era}: ${row} is ${states[row]}`);
  }
  // The second pass knew the client: no second registration.
  check(states['a-6'] === 'skipped', `${era}: a-6 is ${states['a-6']}`);
  const caption = await page.textContent('#mf-da figcaption');
  check(/Authorization/.test(caption), `the third diagram's title: ${caption}`);
  // No token or code in the exports, the page's storage or its address.
  check(secrets.length >= 4, `${era}: the secrets seen on the wire: ${secrets.length}`);
  const saved = [];
  for (const button of ['#mf-export-json', '#mf-export-har', '#mf-export-mermaid']) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    const path = join(opt.out, `auth-${server}-${era}-${download.suggestedFilename()}`);
    await download.saveAs(path);
    saved.push([button, readFileSync(path, 'utf8')]);
  }
  saved.push(['localStorage', await page.evaluate(() => JSON.stringify({ ...localStorage }))]);
  saved.push(['sessionStorage', await page.evaluate(() => JSON.stringify({ ...sessionStorage }))]);
  saved.push(['the address', page.url()]);
  saved.push(['the page', await page.content()]);
  for (const [where, text] of saved) {
    for (const secret of secrets) check(!text.includes(secret), `${era}: a token or code in ${where}`);
  }
}

/** A link's approve=auto for a server other than the page's own: the first tool call still
 * asks, says why, and the user's yes lets the page's later calls to it go without asking. */
async function confirmLinkOnce(page) {
  await page.waitForSelector('#mf-link-auto', { timeout: 20_000 });
  const said = await page.textContent('#mf-link-auto');
  check(/without asking/.test(said), `the dialog does not say what the link asked: ${said}`);
  await page.click('#mf-yes');
}

/** axe-core (pinned, installed with the test tools) run on the page as it is: its violations. */
async function axe(page) {
  const tools = process.env.MCP_FLOW_TOOLS ?? join(homedir(), '.cache/mcp-flow');
  const source = readFileSync(join(tools, 'npm/node_modules/axe-core/axe.min.js'), 'utf8');
  // Evaluated through the browser's protocol, so the page's Content-Security-Policy lets it in.
  await page.evaluate(source);
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes.map((n) => n.target.join(' ')).slice(0, 12).join(', ') })));
}

/** Once the run's access token has run out (the servers give short-lived ones), Ask again
 * refreshes it at `tokenPath` first, with no consent, and the question goes through. */
async function refreshedAsk(page, tokenPath) {
  let refreshes = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === tokenPath && /grant_type=refresh_token/.test(request.postData() ?? '')) refreshes++;
  });
  await page.waitForTimeout(Number(opt['token-secs']) * 1000 + 500);
  await page.click('#mf-ask');
  await page.waitForFunction(() => document.querySelector("g[data-row='a-refresh-result']")?.dataset.state === 'done',
    null, { timeout: 20_000 });
  await finished(page);
  check(/sunny/i.test(await answer(page)), `after the refresh: ${await answer(page)}`);
  check((await page.$('#mf-auth-open')) === null, 'a refresh asked the user to consent');
  check(refreshes === 1, `refresh requests after Ask: ${refreshes}`);
}

const scenarios = {
  async 'What changed: runs against servers with different tools, each change named'(page) {
    await page.goto(`${need('base')}/?speed=instant&approve=auto&era=legacy`);
    const connect = async (server) => {
      if (server) {
        await openSettings(page);
        await page.fill('#mf-server', server);
        await page.press('#mf-server', 'Enter');
        await page.dispatchEvent('#mf-server', 'change');
      }
      await page.click('#mf-connect');
      await page.waitForFunction(() => document.querySelector('g[data-row="d1-8"]')?.dataset.state === 'done',
        null, { timeout: 20_000 });
    };
    await connect(null);
    // The weather run saved as a recording, to compare with later without loading it.
    const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#mf-export-json')]);
    const weatherRecording = join(opt.out, 'weather-recording.json');
    await saved.saveAs(weatherRecording);
    await page.click('#mf-connection > summary');
    await page.waitForSelector('#mf-connection .mf-hint');
    check((await page.textContent('#mf-connection')).includes('No earlier run'), 'a diff with no earlier run');
    // The calculator: the weather tool gone, four tools added, the capabilities it lacks named.
    await connect(`${need('base')}/calc`);
    await page.waitForSelector('#mf-diff li');
    const changes = () => page.$$eval('#mf-diff li', (lis) => lis.map((li) => [li.dataset.change, li.textContent]));
    const calc = await changes();
    const has = (list, how, text) => list.some(([h, t]) => h === how && t === text);
    check(has(calc, 'removed', '− tool get_weather'), `calc: ${JSON.stringify(calc)}`);
    for (const op of ['add', 'subtract', 'multiply', 'divide']) {
      check(has(calc, 'added', `+ tool ${op}`), `calc: no + tool ${op}: ${JSON.stringify(calc)}`);
    }
    check(has(calc, 'removed', '− capability prompts'), `calc: ${JSON.stringify(calc)}`);
    // The same against the weather run's recording, read from its file and not loaded: the run
    // shown stays the calculator's.
    await page.setInputFiles('#mf-diff-file', weatherRecording);
    await page.waitForSelector('#mf-diff-against');
    const fromFile = await changes();
    check(JSON.stringify(fromFile) === JSON.stringify(calc), `from the file: ${JSON.stringify(fromFile)}`);
    check((await page.textContent('#mf-diff-against')).includes('weather-recording.json'), 'the file compared is not named');
    check((await rows(page))['d1-8'] === 'done' && (await page.textContent('g[data-row="d1-6"]')).includes('add'),
      'the recording was loaded in place of the run');
    // A server whose get_weather differs from the weather server's, compared with run 1.
    await connect(`${need('faulty')}/fault/output-mismatch/mcp`);
    await page.selectOption('#mf-diff-from', '1');
    await page.waitForFunction(() => document.querySelector('#mf-diff li[data-change="changed"]'), null, { timeout: 5_000 });
    const faulty = await changes();
    check(faulty.some(([h, t]) => h === 'changed' && t.startsWith('~ tool get_weather: ')),
      `faulty vs weather: ${JSON.stringify(faulty)}`);
    await page.locator('#mf-connection').screenshot({ path: join(opt.out, 'what-changed.png') });
  },

  async 'Timeline: the Tokyo run on a time axis from ?view=timeline, both eras, by keyboard'(page) {
    const methods = rpcMethods(page);
    for (const spoken of ['legacy', 'modern']) {
      methods.length = 0;
      await page.goto(`${need('base')}/?speed=instant&approve=auto&autoplay&era=${spoken}&view=timeline`);
      await finished(page);
      await page.waitForSelector('#mf-timeline[open] g[data-span]');
      const spans = () => page.$$eval('#mf-timeline g[data-span]', (gs) => gs.map((g) => ({
        span: g.dataset.span, row: g.dataset.row ?? null, lane: g.dataset.lane, state: g.getAttribute('data-state'),
      })));
      const all = await spans();
      // One span per request sent, in the order sent, each with its row; the model's two calls.
      const requests = all.filter((s) => s.lane === 'Requests');
      check(JSON.stringify(requests.map((s) => s.span)) === JSON.stringify(methods),
        `${spoken}: spans ${requests.map((s) => s.span).join(', ')} for requests ${methods.join(', ')}`);
      check(requests.every((s) => s.row), `${spoken}: a request span without its row: ${JSON.stringify(requests)}`);
      check(all.some((s) => s.span === 'tools/call' && s.row === 'd2-7'), `${spoken}: tools/call is not on d2-7`);
      check(all.filter((s) => s.lane === 'Model').length === 2, `${spoken}: model spans ${JSON.stringify(all)}`);
      check(all.every((s) => s.state === null), `${spoken}: a span carries data-state`);
      // Zoom and pan by keyboard, in the plot: the run is not stepped (no new request).
      const scale = async () => parseFloat(await page.textContent('.mf-timeline-scale'));
      const whole = await scale();
      await page.focus('.mf-timeline-plot');
      await page.keyboard.press('+');
      const closer = await scale();
      check(Math.abs(closer - whole / 2) <= 1, `${spoken}: zoomed from ${whole} ms to ${closer} ms`);
      const sent = methods.length;
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowLeft');
      await page.waitForTimeout(300);
      check(methods.length === sent && (await answer(page)).length > 0, `${spoken}: a pan stepped the run`);
      await page.click('#mf-timeline-fit');
      check((await scale()) === whole, `${spoken}: the whole run again`);
      // A span selects its row, by keyboard; a zoom from a span keeps the focus on it.
      await page.focus('#mf-timeline g[data-span="tools/call"]');
      await page.keyboard.press('+');
      await page.waitForFunction(() => document.activeElement?.dataset?.span === 'tools/call', null, { timeout: 2_000 })
        .catch(() => {});
      const kept = await page.evaluate(() => document.activeElement?.dataset?.span ?? document.activeElement?.tagName);
      check(kept === 'tools/call', `${spoken}: after a zoom the focus is on ${kept}`);
      await page.keyboard.press('-');
      await page.waitForFunction(() => document.activeElement?.dataset?.span === 'tools/call', null, { timeout: 2_000 });
      await page.keyboard.press('Enter');
      await page.waitForSelector('.mf-inspect[data-row="d2-7"]');
      check((await page.evaluate(() => location.hash)) === '#d2-7', `${spoken}: the span did not select d2-7`);
      await page.locator('#mf-timeline').screenshot({ path: join(opt.out, `timeline-${spoken}.png`) });
    }
    // A listen stream (2026-07-28): one span in the streams' lane, its events (the acknowledgment,
    // the update) as ticks on it.
    await page.click('#mf-connection > summary');
    await page.click('#mf-browse');
    await page.waitForFunction(() => document.querySelector('g[data-row="r-28"]')?.dataset.state === 'done',
      null, { timeout: 30_000 });
    const listen = '#mf-timeline g[data-span="subscriptions/listen"][data-lane="Streams"]';
    await page.waitForSelector(listen);
    const ticks = await page.$$eval(`${listen} .mf-tick`, (ls) => ls.length);
    check(ticks >= 2, `the listen stream shows ${ticks} events`);
    check((await page.getAttribute(listen, 'data-row')) === 'r-16', 'the listen span is not on r-16');
    await page.locator('#mf-timeline').screenshot({ path: join(opt.out, 'timeline-listen.png') });
    // The server's question: in 2026-07-28 the tools/call's two rounds under one bracket; in
    // 2025-11-25 the answer is a POST of its own while the call's stream stays open.
    const q = encodeURIComponent("What's the weather in Springfield?");
    for (const spoken of ['modern', 'legacy']) {
      await page.goto(`${need('base')}/?era=${spoken}&q=${q}&speed=instant&approve=auto&autoplay&view=timeline`);
      await page.waitForSelector('#mf-form-title', { timeout: 20_000 });
      await answerIllinois(page, spoken);
      await finished(page);
      await page.waitForSelector('#mf-timeline g[data-span="tools/call"]');
      const calls = await page.$$eval('#mf-timeline g[data-span="tools/call"]', (gs) => gs.map((g) => g.getAttribute('aria-label')));
      const groups = await page.$$eval('#mf-timeline g[data-group="mrtr"]', (gs) => gs.map((g) => g.dataset.rounds));
      if (spoken === 'modern') {
        check(calls.length === 2 && calls[0].includes('round 1') && calls[1].includes('round 2'), `modern: ${calls}`);
        check(JSON.stringify(groups) === '["2"]', `modern: rounds ${groups}`);
        await page.locator('#mf-timeline').screenshot({ path: join(opt.out, 'timeline-springfield.png') });
      } else {
        check(calls.length === 1 && groups.length === 0, `legacy: calls ${calls}, rounds ${groups}`);
        const answerPost = await page.$('#mf-timeline g[data-span="POST /mcp"][data-lane="Requests"]');
        check(answerPost, 'legacy: the answer to elicitation/create is not a span');
      }
    }
  },

  async 'Resources, prompts and completion: a browse from the connection panel, both eras'(page) {
    const methods = rpcMethods(page);
    const fetched = pieces(page);
    for (const spoken of ['legacy', 'modern']) {
      methods.length = 0;
      await page.goto(`${need('base')}/?speed=instant&approve=auto&era=${spoken}`);
      await page.click('#mf-connection > summary');
      check(!fetched.some((n) => n.startsWith('split_browse')), `${spoken}: the walk's module before the walk: ${fetched}`);
      await page.click('#mf-browse');
      await page.waitForFunction(
        () => ['done', 'failed'].includes(document.querySelector('g[data-row="r-28"]')?.dataset.state) ||
          document.querySelector('g[data-row][data-state="failed"]') !== null,
        null, { timeout: 20_000 });
      if (await page.$('g[data-row][data-state="failed"]')) {
        throw new Error(`${spoken}: a row failed: ${await page.textContent('#mf-error')}`);
      }
      check((await era(page)) === spoken, `${spoken}: the page speaks ${await era(page)}`);
      check(fetched.some((n) => n.startsWith('split_browse')), `${spoken}: the walk's module: ${fetched}`);
      fetched.length = 0;
      const states = await rows(page);
      const browse = Object.entries(states).filter(([id]) => id.startsWith('r-'));
      check(browse.length === 28, `${spoken}: ${browse.length} browse rows drawn`);
      // The default endpoint offers no task (its one tool answers at once): rows 22 to 27 skipped.
      const taskRow = (id) => Number(id.slice(2)) >= 22 && Number(id.slice(2)) <= 27;
      for (const [id, state] of browse) {
        check(state === (taskRow(id) ? 'skipped' : 'done'), `${spoken}: row ${id} is ${state}`);
      }
      // Connected first (diagram 1), no question asked (diagram 2 untouched).
      check(states['d1-8'] === 'done' && states['d2-1'] === 'pending', `${spoken}: d1-8 ${states['d1-8']}, d2-1 ${states['d2-1']}`);
      const handshake = spoken === 'legacy' ? ['initialize', 'notifications/initialized', 'logging/setLevel'] : ['server/discover'];
      // Then the subscription to the report read: legacy, the GET stream (not a POST) and
      // resources/subscribe, unsubscribe; modern, subscriptions/listen, closed by the client.
      const watched = spoken === 'legacy' ? ['resources/subscribe', 'resources/unsubscribe'] : ['subscriptions/listen'];
      const browsed = ['resources/list', 'resources/read', 'resources/templates/list', 'completion/complete',
        'resources/read', 'prompts/list', 'prompts/get', ...watched, 'resources/read'];
      check(JSON.stringify(methods) === JSON.stringify([...handshake, 'tools/list', ...browsed]),
        `${spoken}: requests ${methods.join(', ')}`);
      // Each row shows what really came back.
      const inspect = async (row) => {
        await page.click(`g[data-row="${row}"]`);
        await page.waitForSelector(`.mf-inspect[data-row="${row}"]`);
        return page.textContent('.mf-inspector');
      };
      const cities = await inspect('r-3');
      check(cities.includes('weather://cities') && cities.includes('weather://icon.png'), `${spoken}: r-3 ${cities.slice(0, 300)}`);
      const fresh = await page.$('.mf-freshness');
      if (spoken === 'modern') {
        check(fresh && /fresh for 300\.0 s \(ttlMs\)/.test(await fresh.textContent()), `modern: r-3 freshness: ${fresh && await fresh.textContent()}`);
      } else {
        check(!fresh, 'legacy: a freshness line without ttlMs');
      }
      const completed = await inspect('r-9');
      check(completed.includes('Tokyo'), `${spoken}: r-9 ${completed.slice(0, 300)}`);
      const report = await inspect('r-11');
      check(report.includes('weather://city/') && report.includes('Sunny'), `${spoken}: r-11 ${report.slice(0, 300)}`);
      const prompt = await inspect('r-15');
      check(prompt.includes('weather_report') && prompt.includes('2 message'), `${spoken}: r-15 ${prompt.slice(0, 300)}`);
      // The read's contents and the prompt's messages by kind, as for a tool's result.
      const kinds = async (row) => {
        await inspect(row);
        return page.$$eval('.mf-inspect .mf-content [data-kind]', (bs) => bs.map((b) => b.dataset.kind));
      };
      check(JSON.stringify(await kinds('r-11')) === '["resource"]', `${spoken}: r-11 blocks ${await kinds('r-11')}`);
      check(JSON.stringify(await kinds('r-15')) === '["text","resource"]', `${spoken}: r-15 blocks ${await kinds('r-15')}`);
      const label = await page.textContent('g[data-row="r-10"]');
      check(label.includes('weather://city/'), `${spoken}: r-10's label lacks the URI read: ${label}`);
      // The update came, and the report read again was observed later than the first read.
      const observed = (text) => Number((/observedAt\\?":\s*(\d+)/.exec(text) ?? [])[1]);
      const before = observed(report);
      const after = observed(await inspect('r-21'));
      check(before > 0 && after > before, `${spoken}: observedAt ${before} then ${after}`);
      const ack = await inspect('r-17');
      check(ack.includes('weather://city/'), `${spoken}: r-17 ${ack.slice(0, 300)}`);
      await page.locator('#mf-dr').screenshot({ path: join(opt.out, `browse-${spoken}.png`) });

      // Again on the same connection: the browse rows only, no new handshake. In 2026-07-28 the
      // lists are still fresh (ttlMs 300 s): reused, their request rows skipped, nothing sent.
      methods.length = 0;
      await page.click('#mf-browse');
      await page.waitForFunction(() => document.querySelector('g[data-row="r-28"]')?.dataset.state === 'done' &&
        !document.querySelector('#mf-browse').disabled, null, { timeout: 20_000 });
      const lists = ['resources/list', 'resources/templates/list', 'prompts/list'];
      const again = spoken === 'modern' ? browsed.filter((m) => !lists.includes(m)) : browsed;
      check(JSON.stringify(methods) === JSON.stringify(again), `${spoken}: again: ${methods.join(', ')}`);
      const listRows = await rows(page);
      for (const id of ['r-2', 'r-6', 'r-12']) {
        const want = spoken === 'modern' ? 'skipped' : 'done';
        check(listRows[id] === want, `${spoken}: again, row ${id} is ${listRows[id]}, expected ${want}`);
      }
      if (spoken === 'modern') {
        const reused = await inspect('r-2');
        check(reused.includes('reused the list from') && reused.includes('no request sent'), `modern: r-2 again: ${reused.slice(0, 300)}`);
        await page.locator('#mf-dr').screenshot({ path: join(opt.out, 'browse-modern-cached.png') });
      }
    }
  },

  async 'Tasks: the long forecast followed to its end on /forecast, its polls on the timeline'(page) {
    const bodies = [];
    page.on('request', (r) => { if (r.method() === 'POST') bodies.push(r.postData() ?? ''); });
    const methods = rpcMethods(page);
    const server = encodeURIComponent(`${need('base')}/forecast`);
    for (const spoken of ['modern', 'legacy']) {
      methods.length = 0;
      bodies.length = 0;
      await page.goto(`${need('base')}/?server=${server}&speed=instant&era=${spoken}&view=timeline`);
      await page.click('#mf-connection > summary');
      await page.click('#mf-browse');
      await page.waitForFunction(
        () => ['done', 'failed'].includes(document.querySelector('g[data-row="r-28"]')?.dataset.state) ||
          document.querySelector('g[data-row][data-state="failed"]') !== null,
        null, { timeout: 40_000 });
      if (await page.$('g[data-row][data-state="failed"]')) {
        throw new Error(`${spoken}: a row failed: ${await page.textContent('#mf-error')}`);
      }
      // The diagram's rows (the timeline's spans carry data-row too).
      const states = await page.$$eval('#mf-dr g[data-row]', (gs) =>
        Object.fromEntries(gs.map((g) => [g.dataset.row, g.dataset.state])));
      const task = ['r-22', 'r-23', 'r-24', 'r-25', 'r-26', 'r-27'].map((id) => states[id]);
      const inspect = async (row) => {
        await page.click(`#mf-dr g[data-row="${row}"]`);
        await page.waitForSelector(`.mf-inspect[data-row="${row}"]`);
        return page.textContent('.mf-inspector');
      };
      if (spoken === 'legacy') {
        // This server takes tasks only as the 2026-07-28 extension: in 2025-11-25 it declares
        // no tasks capability, so nothing is called as a task.
        check(task.every((s) => s === 'skipped'), `legacy: task rows ${task}`);
        check(!methods.includes('tools/call'), `legacy: ${methods.join(', ')}`);
        const why = await inspect('r-22');
        check(why.includes('does not offer'), `legacy: r-22 ${why.slice(0, 300)}`);
        continue;
      }
      check(JSON.stringify(task) === JSON.stringify(['done', 'done', 'done', 'done', 'skipped', 'done']),
        `modern: task rows ${task}`);
      // The call asks for a task in its capabilities; the polls follow it; no tasks/result.
      const at = methods.indexOf('tools/call');
      const polls = methods.slice(at + 1).filter((m) => m === 'tasks/get').length;
      check(at > 0 && polls >= 2 && methods.length === at + 1 + polls, `modern: ${methods.join(', ')}`);
      const call = JSON.parse(bodies.find((b) => b.includes('"tools/call"')));
      check(call.params.name === 'get_forecast' && call.params.arguments.location === 'Tokyo', `modern: call ${JSON.stringify(call.params)}`);
      const caps = call.params._meta['io.modelcontextprotocol/clientCapabilities'];
      check(caps.extensions && caps.extensions['io.modelcontextprotocol/tasks'], `modern: capabilities ${JSON.stringify(caps)}`);
      const created = await inspect('r-23');
      // The server's own values: its poll interval (500 ms) and its first status message.
      check(created.includes('working, poll every 500 ms (Forecast for Tokyo queued)'), `modern: r-23 ${created.slice(0, 400)}`);
      const status = await inspect('r-25');
      check(status.includes('completed') && status.includes('Forecasting day 3 of 3'), `modern: r-25 ${status.slice(0, 400)}`);
      const result = await inspect('r-27');
      check(result.includes('Day 1: Partly cloudy') && result.includes('Day 3'), `modern: r-27 ${result.slice(0, 400)}`);
      const skipped = await inspect('r-26');
      check(skipped.includes('no tasks/result'), `modern: r-26 ${skipped.slice(0, 300)}`);
      const line = await page.textContent('#mf-dr g[data-row="r-24"]');
      check(line.includes(`after ${polls} poll(s)`), `modern: r-24 reads ${line}`);
      await page.locator('#mf-dr').screenshot({ path: join(opt.out, 'task-modern.png') });
      // The timeline: one span per poll, each on r-24, after the call's span on r-22.
      const spans = await page.$$eval('#mf-timeline g[data-span="tasks/get"]', (gs) => gs.map((g) => g.dataset.row));
      check(spans.length === polls && spans.every((r) => r === 'r-24'), `modern: poll spans ${JSON.stringify(spans)}`);
      const callSpan = await page.getAttribute('#mf-timeline g[data-span="tools/call"]', 'data-row');
      check(callSpan === 'r-22', `modern: the call's span is on ${callSpan}`);
      // The task itself in its own lane: from its creation to the poll that saw it complete,
      // a tick at each poll's answer.
      const taskSpan = '#mf-timeline g.mf-span[data-lane="Tasks"]';
      check((await page.getAttribute(taskSpan, 'data-span')).startsWith('task '), 'modern: no task span');
      check((await page.getAttribute(taskSpan, 'data-row')) === 'r-23', 'modern: the task span is not on r-23');
      const taskTicks = await page.$$eval(`${taskSpan} .mf-tick`, (ls) => ls.length);
      check(taskTicks === polls, `modern: the task shows ${taskTicks} ticks for ${polls} polls`);
      await page.locator('#mf-timeline').screenshot({ path: join(opt.out, 'timeline-task.png') });
    }
  },

  async 'Tasks in 2025-11-25: the reference server-everything runs its research as a task'(page) {
    need('everything');
    const methods = rpcMethods(page);
    const server = encodeURIComponent(need('everything'));
    await page.goto(`${need('base')}/?server=${server}&speed=instant&era=legacy&view=timeline`);
    await page.click('#mf-connection > summary');
    await page.click('#mf-browse');
    // The subscription may wait its 15 s for an update; the research takes four 1 s stages.
    await page.waitForFunction(
      () => ['done', 'failed'].includes(document.querySelector('#mf-dr g[data-row="r-28"]')?.dataset.state) ||
        document.querySelector('#mf-dr g[data-row][data-state="failed"]') !== null,
      null, { timeout: 60_000 });
    if (await page.$('#mf-dr g[data-row][data-state="failed"]')) {
      throw new Error(`a row failed: ${await page.textContent('#mf-error')}`);
    }
    const states = await page.$$eval('#mf-dr g[data-row]', (gs) =>
      Object.fromEntries(gs.map((g) => [g.dataset.row, g.dataset.state])));
    const task = ['r-22', 'r-23', 'r-24', 'r-25', 'r-26', 'r-27'].map((id) => states[id]);
    check(task.every((s) => s === 'done'), `task rows ${task}`);
    // 2025-11-25's own methods: the call with params.task, tasks/get until completed, tasks/result.
    const at = methods.indexOf('tools/call');
    const tail = methods.slice(at);
    check(tail[tail.length - 1] === 'tasks/result' && tail.slice(1, -1).every((m) => m === 'tasks/get') && tail.length >= 4,
      `methods ${methods.join(', ')}`);
    const inspect = async (row) => {
      await page.click(`#mf-dr g[data-row="${row}"]`);
      await page.waitForSelector(`.mf-inspect[data-row="${row}"]`);
      return page.textContent('.mf-inspector');
    };
    const call = await inspect('r-22');
    check(call.includes('simulate-research-query') && call.includes('Tokyo'), `r-22 ${call.slice(0, 300)}`);
    const status = await inspect('r-25');
    check(status.includes('completed'), `r-25 ${status.slice(0, 300)}`);
    const report = await inspect('r-27');
    check(report.includes('Research Report: Tokyo'), `r-27 ${report.slice(0, 300)}`);
    await page.locator('#mf-dr').screenshot({ path: join(opt.out, 'task-legacy.png') });
    check(await page.$('#mf-timeline g.mf-span[data-lane="Tasks"][data-row="r-23"]'), 'no task span on the timeline');
  },

  async 'Authorization: the Tokyo run against a protected server, consent in a popup and a step-up, both eras'(page) {
    await authorizedTokyo(page, 'legacy');
    await page.goto('about:blank');
    await authorizedTokyo(page, 'modern');
    await page.locator('#mf-da').screenshot({ path: join(opt.out, 'authorization.png') });
    await refreshedAsk(page, '/oauth/token');
  },

  async 'Authorization by a third party: oidc-provider issues the tokens, both eras'(page) {
    await authorizedTokyo(page, 'legacy', 'oidc');
    await page.goto('about:blank');
    await authorizedTokyo(page, 'modern', 'oidc');
    await page.locator('#mf-da').screenshot({ path: join(opt.out, 'authorization-oidc.png') });
    await refreshedAsk(page, '/token');
  },

  async 'SmolLM2 in the page: a real model runs a Paris question in a worker, then from the cache'(page) {
    // Counts the model's workers the page starts and ends (not the output-schema checker's).
    await page.addInitScript(() => {
      const Base = window.Worker;
      window.__workers = { made: 0, ended: 0 };
      window.Worker = class extends Base {
        constructor(url, options) {
          super(url, options);
          this.__model = String(url).includes('smollm');
          if (this.__model) window.__workers.made++;
        }
        terminate() { if (this.__model) window.__workers.ended++; super.terminate(); }
      };
    });
    const fetched = pieces(page);
    // A city the prompt does not name (the tool's description gives Tokyo as its example), so
    // the call's arguments are the model's reading of the question. Paris has light rain.
    const q = encodeURIComponent('What is the weather like in Paris?');
    await page.goto(`${need('base')}/?llm=smollm2&speed=instant&approve=auto&q=${q}`);
    check((await page.inputValue('#mf-llm-provider')) === 'smollm2', 'llm=smollm2 did not pick it');
    // The model's panel (and its worker's reader) come with the in-page model's module, fetched
    // because the model is picked (a page with the offline model does not: see the exports).
    const before = await page.textContent('#mf-smollm .mf-smollm-status');
    check(fetched.some((n) => n.startsWith('split_smollm_page')), `the model's panel without its module: ${fetched}`);
    check(before.includes('144.8 MB'), `the size is not told before the download: ${before}`);
    // The page's own timer keeps ticking while the model works in its worker: the longest gap
    // bounds a hang of the page's thread (a turn on it would freeze the page for the turn).
    const ticking = () => page.evaluate(() => {
      window.__gaps = [];
      let last = performance.now();
      setInterval(() => { const now = performance.now(); window.__gaps.push(now - last); last = now; }, 50);
    });
    // Round 1 in the default style (function signatures from the schemas), round 2 in the seeds'
    // system-prompt style.
    for (const [round, source] of [[1, 'downloaded'], [2, "from the browser's cache"]]) {
      if (round === 2) {
        fetched.length = 0;
        await page.reload();
        await openSettings(page);
        await page.selectOption('#mf-llm-style', 'prompt');
      }
      await ticking();
      // The first run shows the download's progress where the run is (the inspector).
      const bar = round === 1 ? page.waitForSelector('#mf-model-live progress', { timeout: 60_000 }) : null;
      await page.click('#mf-play');
      if (bar) await bar;
      await finished(page, 300_000);
      await allDone(page, ['d2-4', 'd2-5']);
      const said = await answer(page);
      check(/rain/i.test(said), `round ${round}: the answer does not say rain: ${said}`);
      await page.click('g[data-row="d2-7"]');
      const call = await page.textContent('.mf-inspector');
      check(/"location":\s*"Paris"/.test(call), `round ${round}: the call's arguments: ${call.slice(0, 400)}`);
      check(fetched.some((n) => n.startsWith('split_smollm_page')), `round ${round}: the model's reader: ${fetched}`);
      const status = await page.textContent('#mf-smollm .mf-smollm-status');
      check(status.startsWith('Ready') && status.includes(source) && status.includes('tokens/s'),
        `round ${round}: status ${status}`);
      const gap = await page.evaluate(() => Math.max(...window.__gaps));
      check(gap < 3000, `round ${round}: the page's thread stalled for ${Math.round(gap)} ms`);
      console.log(`     round ${round}: ${status}; longest timer gap ${Math.round(gap)} ms`);
      await page.click('g[data-row="d1-8"]');
      const tools = await page.textContent('.mf-inspector');
      const presented = round === 1 ? 'get_weather(location: string' : 'Tool: get_weather';
      check(tools.includes(presented), `round ${round}: d1-8 does not show the tools as ${presented}`);
    }
    // The decision, on d2-3: the tool the model called, with the probability it gave each choice.
    await page.click('g[data-row="d2-3"]');
    const inspector = await page.textContent('.mf-inspector');
    for (const want of ['Decision (probability at the point of choice)', 'get_weather', 'no tool',
      'chat template applied']) {
      check(inspector.includes(want), `the d2-3 inspector lacks ${want}`);
    }
    const p = await page.$eval('.mf-choices tr td.mf-p', (td) => parseFloat(td.textContent));
    check(p > 50 && p <= 100, `get_weather's probability: ${p}%`);
    await page.screenshot({ path: join(opt.out, 'smollm2-run.png') });

    // A run that ends while the model writes stops its worker; the next run starts a new one.
    const workersBefore = await page.evaluate(() => ({ ...window.__workers }));
    await page.click('#mf-restart');
    await page.waitForSelector('#mf-smollm-text', { timeout: 120_000 });
    // The text being written shows on the row of the model's turn too.
    const streamed = await page.waitForSelector(
      'g[data-row="d2-3"] .mf-stream, g[data-row="d2-11"] .mf-stream',
      { timeout: 120_000 },
    );
    const tail = await streamed.textContent();
    check(tail.trim().length > 0, 'the row shows no text while the model writes');
    console.log(`     on the row while writing: ${tail}`);
    await page.click('#mf-restart');
    await finished(page, 300_000);
    const workersAfter = await page.evaluate(() => ({ ...window.__workers }));
    check(workersAfter.ended === workersBefore.ended + 1 && workersAfter.made === workersBefore.made + 1,
      `workers before ${JSON.stringify(workersBefore)}, after ${JSON.stringify(workersAfter)}`);
    check(/rain/i.test(await answer(page)), `after the restart: ${await answer(page)}`);
  },

  async "llama.cpp's llama-server: the OpenAI-compatible provider against a real server, in both tool-calling styles"(page) {
    need('llama-base');
    // What went to llama-server and what it answered, read off the wire.
    const exchanges = [];
    page.on('response', (r) => {
      if (!r.url().startsWith(need('llama-base')) || r.request().method() !== 'POST') return;
      exchanges.push({ sent: JSON.parse(r.request().postData() ?? 'null'), reply: r.json().catch(() => null) });
    });
    const q = encodeURIComponent('What is the weather like in Paris?');
    const fetched = pieces(page);
    for (const style of ['native', 'prompt']) {
      exchanges.length = 0;
      await page.goto(`${need('base')}/?speed=instant&approve=auto&era=legacy&q=${q}`);
      await openSettings(page);
      await page.selectOption('#mf-llm-provider', 'openai');
      await page.fill('#mf-llm-base', `${need('llama-base')}/v1`);
      await page.press('#mf-llm-base', 'Tab');
      await page.fill('#mf-llm-model', 'SmolLM2-135M-Instruct');
      await page.press('#mf-llm-model', 'Tab');
      await page.selectOption('#mf-llm-style', style);
      await page.click('#mf-play');
      await finished(page, 120_000);
      // A model other than the offline one comes in the models' module.
      check(fetched.some((n) => n.startsWith('split_models')), `${style}: the models' module: ${fetched}`);
      fetched.length = 0;
      check(exchanges.length >= 1, `${style}: nothing reached llama-server`);
      const [first] = exchanges;
      const system = first.sent.messages.find((m) => m.role === 'system')?.content ?? '';
      if (style === 'native') {
        check(first.sent.tools?.[0]?.function?.name === 'get_weather',
          `native: the request's tools: ${JSON.stringify(first.sent.tools)?.slice(0, 200)}`);
        check(!system.includes('get_weather'), 'native: the tools went in a system message too');
      } else {
        check(first.sent.tools === undefined, 'prompt style: the request carries tools');
        check(system.includes('Tool: get_weather'), `prompt style: the system message: ${system.slice(0, 200)}`);
      }
      const reply = await first.reply;
      const message = reply?.choices?.[0]?.message;
      check(message, `${style}: llama-server's reply has no message: ${JSON.stringify(reply)?.slice(0, 300)}`);
      // The model's own choice (greedy, so the same each run): a call, or text.
      const called = style === 'native'
        ? (message.tool_calls ?? []).length > 0
        : /"tool_name"\s*:\s*"get_weather"/.test(message.content ?? '');
      const states = await rows(page);
      check(states['d2-3'] === 'done', `${style}: d2-3 is ${states['d2-3']}`);
      if (called) {
        check(states['d2-7'] === 'done' && exchanges.length === 2,
          `${style}: the model called get_weather, but d2-7 is ${states['d2-7']} after ${exchanges.length} model turns`);
        check((await answer(page)) === (await exchanges[1].reply)?.choices?.[0]?.message?.content?.trim(),
          `${style}: the answer is not the model's second reply`);
      } else {
        for (const id of ['d2-4', 'd2-7', 'd2-8', 'd2-11']) {
          check(states[id] === 'skipped', `${style}: no tool was called, yet ${id} is ${states[id]}`);
        }
        check(exchanges.length === 1, `${style}: ${exchanges.length} model turns for a text reply`);
        check((await answer(page)) === (message.content ?? '').trim(),
          `${style}: the answer is not the model's text: ${await answer(page)}`);
      }
      console.log(`     ${style}: ${called ? 'called get_weather' : 'answered in text, no tool'}; ` +
        `${reply.usage?.prompt_tokens} prompt tokens`);
      await page.screenshot({ path: join(opt.out, `llama-server-${style}.png`) });
    }
  },

  async 'accessibility: axe-core finds no serious or critical violation on the page, mid-run, in the inspector and each dialog, light and dark'(page) {
    const report = [];
    const serious = [];
    const audit = async (where) => {
      const found = await axe(page);
      const counts = {};
      for (const v of found) counts[v.impact] = (counts[v.impact] ?? 0) + 1;
      report.push(`${where}: ${found.length} violations ${JSON.stringify(counts)}`);
      for (const v of found.filter((x) => ['serious', 'critical'].includes(x.impact))) {
        serious.push(`${where}: ${v.impact} ${v.id} on ${v.nodes} element(s), first ${v.first}`);
      }
    };
    await page.goto(`${need('base')}/?speed=instant`);
    await page.waitForSelector('g[data-row]');
    await audit('first load, light');
    // The first screen at 1280x800, light and dark: the settings in order and the diagram below.
    await page.screenshot({ path: join(opt.out, 'first-load-1280-light.png') });
    const diagramTop = await page.$eval('.mf-diagrams', (d) => d.getBoundingClientRect().top);
    check(diagramTop < 700, `the diagram starts at ${diagramTop}px on a 1280x800 first load`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${need('base')}/?speed=instant`);
    await page.waitForSelector('g[data-row]');
    await audit('first load, dark');
    await page.screenshot({ path: join(opt.out, 'first-load-1280-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    // Mid-run: step mode, a few rows done, one waiting.
    await page.goto(`${need('base')}/?mode=step&era=legacy&speed=instant`);
    await page.waitForSelector('g[data-row="d1-1"]');
    for (let i = 0; i < 4; i++) await page.click('#mf-next');
    await page.waitForSelector('g[data-row][data-state="done"]');
    await audit('mid-run (step mode)');
    // The inspector with an exchange open.
    await page.click('g[data-row="d1-1"]');
    await page.waitForSelector('.mf-inspector details');
    await page.$$eval('.mf-inspector details', (ds) => ds.forEach((d) => { d.open = true; }));
    await audit('the inspector, an exchange open');
    // The dialogs: approval, the server's question, the user in the model's place.
    await page.goto(`${need('base')}/?speed=instant&era=legacy`);
    await page.click('#mf-play');
    await page.waitForSelector('#mf-yes', { timeout: 20_000 });
    await audit('the approval dialog');
    const q = encodeURIComponent("What's the weather in Springfield?");
    await page.goto(`${need('base')}/?era=legacy&q=${q}&speed=instant&approve=auto&autoplay`);
    await page.waitForSelector('#mf-form-title', { timeout: 20_000 });
    await audit("the server's question form");
    await page.goto(`${need('base')}/?llm=you&speed=instant&approve=auto&autoplay&era=legacy`);
    await page.waitForSelector('#mf-you', { timeout: 20_000 });
    await audit('the "you are the model" dialog');
    console.log(`     axe-core: ${report.join('; ')}`);
    check(serious.length === 0, `serious or critical:\n${serious.join('\n')}`);
  },

  async 'a full run in 2026-07-28, the era a new server speaks'(page) {
    await page.goto(`${need('base')}/?speed=instant&approve=auto&autoplay`);
    await finished(page);
    check((await era(page)) === 'modern', `data-era: ${await era(page)}`);
    await allDone(page, ['d2-4', 'd2-5']);
    check((await answer(page)) === 'The weather in Tokyo is sunny, 22 °C.', `answer: ${await answer(page)}`);
    check(!(await page.$('g[data-row="d1-1"]')), 'an initialize row in the 2026-07-28 diagram');
    const line = await page.textContent('#mf-era-line');
    check(line.includes('MCP 2026-07-28') && line.includes('server/discover'), `era line: ${line}`);
    await page.click('g[data-row="d2-7"]');
    const inspector = await page.textContent('.mf-inspector');
    check(inspector.includes('Mcp-Method: tools/call'), 'the tools/call headers are not shown');
    await page.screenshot({ path: join(opt.out, 'modern-run.png') });
  },

  async 'a deep link with era=modern'(page) {
    await page.goto(`${need('base')}/?era=modern&speed=instant&approve=auto&autoplay#d2-8`);
    await finished(page);
    check((await era(page)) === 'modern', `data-era: ${await era(page)}`);
    check((await page.inputValue('#mf-era')) === 'modern', 'the era picker does not say modern');
    const at = await placement(page, 'g[data-row="d2-8"]');
    check(at?.inView, `the linked row is out of view: ${JSON.stringify(at)}`);
    check((await rows(page))['d2-8'] === 'done', 'd2-8 did not run');
  },

  async "the server's question (Springfield) in both eras"(page) {
    const q = encodeURIComponent("What's the weather in Springfield?");
    const fetched = pieces(page);
    for (const spoken of ['modern', 'legacy']) {
      fetched.length = 0;
      await page.goto(`${need('base')}/?era=${spoken}&q=${q}&speed=instant&approve=auto&autoplay`);
      await page.waitForSelector('#mf-form-title', { timeout: 20_000 });
      // The form's view comes with the reader of the server's questions (one module).
      check(fetched.some((n) => n.startsWith('split_server_questions')), `${spoken}: the form's view: ${fetched}`);
      const message = await page.textContent('.mf-form-message');
      check(message.includes('Springfield'), `${spoken}: the form asks ${message}`);
      await page.screenshot({ path: join(opt.out, `springfield-form-${spoken}.png`) });
      await answerIllinois(page, spoken);
      await finished(page);
      check((await era(page)) === spoken, `data-era: ${await era(page)}`);
      const s = await rows(page);
      for (const id of QUESTION_ROWS) check(s[id] === 'done', `${spoken}: ${id} ${s[id]}`);
      check((await answer(page)).includes('Springfield'), `${spoken}: answer ${await answer(page)}`);
      // The reader of the server's questions is split out of the first load, fetched when asked.
      check(fetched.some((n) => n.startsWith('split_server_questions')),
        `${spoken}: the questions' reader was not fetched: ${fetched.join(', ')}`);
    }
  },

  async 'the comparison of the eras'(page) {
    const fetched = pieces(page);
    await page.goto(`${need('base')}/?speed=instant&approve=auto`);
    await page.click('#mf-compare-button');
    await page.waitForSelector('#mf-compare-table', { timeout: 40_000 });
    check(fetched.some((n) => n.startsWith('split_ui_compare')), `the comparison's view was not fetched: ${fetched}`);
    const figures = await page.$$eval('#mf-compare-table tr', (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
    writeFileSync(join(opt.out, 'compare.json'), JSON.stringify(figures, null, 2));
    const requests = figures.find((r) => r[0] === 'HTTP requests');
    check(requests && Number(requests[1]) > Number(requests[2]),
      `legacy should send more requests: ${JSON.stringify(requests)}`);
    check((await era(page)) === 'modern', 'the modern run is not the one shown');
    await page.locator('#mf-compare').scrollIntoViewIfNeeded();
    await page.locator('#mf-compare').screenshot({ path: join(opt.out, 'compare.png') });
  },

  async 'first run on the wire: every compressible file compressed, and the bytes and files to the Tokyo answer'(page) {
    // What a first visit costs: from page load to the answer of the default Tokyo run (Play,
    // approval on its default), every response of the page's origin as it came over the wire.
    const origin = new URL(need('base')).origin;
    const reads = [];
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin || request.method() !== 'GET') return;
      reads.push((async () => {
        const response = await request.response();
        const sizes = await request.sizes();
        const headers = await response.allHeaders();
        return {
          path: url.pathname,
          encoding: headers['content-encoding'] ?? null,
          cache: headers['cache-control'] ?? null,
          wire: sizes.responseBodySize + sizes.responseHeadersSize,
        };
      })());
    });
    await page.goto(`${need('base')}/?speed=instant`);
    await page.click('#mf-play');
    await page.waitForSelector('#mf-yes', { timeout: 20_000 });
    await page.click('#mf-yes');
    await finished(page);
    await page.waitForLoadState('networkidle');
    const files = await Promise.all(reads);
    const compressible = files.filter((f) => /\.(wasm|js|mjs|css|html|json|svg)$|\/$/.test(f.path));
    const plain = compressible.filter((f) => f.encoding !== 'br' && f.encoding !== 'gzip');
    check(compressible.length > 0 && plain.length === 0, `sent uncompressed: ${JSON.stringify(plain)}`);
    // A build's files live in a folder named by their contents (xtask/src/site.rs) and are kept
    // for good; what is fetched by a fixed address (the page, the workers' loaders) is revalidated.
    const built = files.filter((f) => f.path.startsWith('/b/'));
    check(built.length >= 5 && built.every((f) => /immutable/.test(f.cache ?? '')),
      `a build's files not immutable: ${JSON.stringify(built.filter((f) => !/immutable/.test(f.cache ?? '')))}`);
    const fixed = files.filter((f) => !f.path.startsWith('/b/'));
    check(fixed.every((f) => f.cache === 'no-cache'), `fixed addresses not revalidated: ${JSON.stringify(fixed)}`);
    const total = files.reduce((n, f) => n + f.wire, 0);
    const figures = { files: files.length, wireBytes: total, encodings: [...new Set(files.map((f) => f.encoding))], list: files };
    writeFileSync(join(opt.out, 'first-run.json'), JSON.stringify(figures, null, 2));
    console.log(`first run: ${files.length} files, ${(total / 1000).toFixed(1)} KB on the wire (${figures.encodings.join(', ')})`);
    // The files are a count the build decides (the split modules and their merged chunks,
    // xtask/src/chunks.rs), not a timing: at most 12 to the first answer.
    check(files.length <= 12, `a first run fetched ${files.length} files: ${files.map((f) => f.path).join(', ')}`);
    // And at most 500 KB on the wire (the bytes, like the files, are the build's, not a timing).
    check(total <= 500_000, `a first run fetched ${total} bytes: ${files.map((f) => `${f.path} ${f.wire}`).join(', ')}`);
  },

  async 'play a full run'(page) {
    await page.goto(`${need('base')}/?${instant}#d2-8`);
    await finished(page);
    await allDone(page, ['d2-4', 'd2-5']);
    check((await answer(page)) === 'The weather in Tokyo is sunny, 22 °C.', `answer: ${await answer(page)}`);
    // The deep-linked row stays selected: its result is in the inspector, the row in view.
    const selected = await page.getAttribute('g[data-row="d2-8"]', 'class');
    check(selected?.includes('selected'), `d2-8 is not selected: ${selected}`);
    const at = await placement(page, '.mf-row[data-row="d2-8"]');
    check(at.inView, `d2-8 is out of view after the run: ${JSON.stringify(at)}`);
    // From the top, so the sticky player bar and inspector are in their places in the picture.
    await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
    await page.screenshot({ path: join(opt.out, 'finished-run.png'), fullPage: true });
  },

  async 'a deep link shows its row on load'(page) {
    await page.goto(`${need('base')}/?approve=auto#d2-8`);
    await page.waitForSelector('.mf-row.mf-selected[data-row="d2-8"]');
    await page.waitForTimeout(300);
    const at = await placement(page, '.mf-row[data-row="d2-8"]');
    check(at.inView, `d2-8 is not in view on load: ${JSON.stringify(at)}`);
    check(at.scrollY > 0, 'the page did not scroll to the row');
    check((await page.textContent('.mf-inspect .mf-row-id')) === 'd2-8', 'the inspector shows another row');
  },

  async 'a Play run at 1x keeps the current row in view'(page) {
    await page.addInitScript(recordFollowing);
    await page.goto(`${need('base')}/?approve=auto&autoplay`);
    // The settings make way for the diagrams once the run starts.
    await page.waitForFunction(() => !document.querySelector('#mf-settings-panel').open);
    // Mid-run (the selection is the newest row; states stay, so a busy machine cannot miss it).
    await page.waitForSelector('.mf-row[data-row="d2-7"]:not([data-state="pending"])', { state: 'attached', timeout: 40_000 });
    await scrolled(page);
    await page.screenshot({ path: join(opt.out, 'player-1280.png') });
    await finished(page, 40_000);
    await page.waitForTimeout(700);
    await page.evaluate(() => window.__sampleFollow());
    const samples = await page.evaluate(() => window.__follow);
    const out = samples.filter((s) => !s.inView);
    // Every row that ran was the current row once (20 in 2026-07-28, 21 in 2025-11-25).
    const ran = Object.values(await rows(page)).filter((s) => s === 'done').length;
    check(samples.length >= ran, `only ${samples.length} of ${ran} rows were current: ${samples.map((s) => s.id)}`);
    check(out.length === 0, `rows out of view while current: ${JSON.stringify(out)}`);
    check((await page.evaluate(() => scrollY)) > 0, 'the page never scrolled');
  },

  async 'a user scroll stops following and the toggle brings the run back'(page) {
    await page.goto(`${need('base')}/?approve=auto&autoplay&speed=2`);
    await page.waitForSelector('.mf-row[data-row="d1-8"]:not([data-state="pending"])', { state: 'attached', timeout: 20_000 });
    check((await page.getAttribute('#mf-follow', 'aria-pressed')) === 'true', 'not following at the start');
    await page.mouse.move(400, 500);
    await page.mouse.wheel(0, -3000);
    await page.waitForFunction(() => document.querySelector('#mf-follow').getAttribute('aria-pressed') === 'false');
    // The wheel's own smooth scroll may still be moving on a busy machine: wait until it rests.
    const away = await restingScroll(page);
    // The run goes on; the page stays where the user put it.
    await page.waitForSelector('.mf-row[data-row="d2-3"]:not([data-state="pending"])', { state: 'attached', timeout: 20_000 });
    check((await page.evaluate(() => scrollY)) === away, 'the page scrolled back while not following');
    await page.click('#mf-follow');
    check((await page.getAttribute('#mf-follow', 'aria-pressed')) === 'true', 'the toggle did not resume');
    await finished(page, 30_000);
    await page.waitForTimeout(900);
    const at = await placement(page, '.mf-row.mf-selected');
    check(at?.inView, `the run's last row is not in view after resuming: ${JSON.stringify(at)}`);
  },

  async 'the language switch turns the whole page Chinese'(page) {
    await page.goto(`${need('base')}/?approve=auto`);
    await page.waitForSelector('#mf-play');
    await page.selectOption('#mf-lang', 'zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await openSettings(page);
    const words = {
      '#mf-play': '播放', '#mf-back': '上一步', '#mf-next': '下一步', '#mf-restart': '重新开始',
      '#mf-connect': '连接', '#mf-ask': '提问', '#mf-export-json': '导出',
      '.mf-settings-title': '设置', '.mf-footer': '快捷键',
    };
    for (const [sel, want] of Object.entries(words)) {
      const got = await page.textContent(sel);
      check(got.includes(want), `${sel}: ${got}`);
    }
    const labels = await page.$$eval('.mf-settings label, .mf-speed', (ls) => ls.map((l) => l.innerText));
    check(labels.some((l) => l.includes('MCP 服务器')) && labels.some((l) => l.includes('问题')), `labels: ${labels}`);
    check((await page.inputValue('#mf-question')) === '东京的天气怎么样？', 'the example question stayed English');
    // Run it: the inspector's words follow too.
    await page.click('#mf-play');
    await page.selectOption('#mf-speed', 'instant');
    await finished(page);
    await page.click('.mf-row[data-row="d2-7"]');
    await page.waitForTimeout(100);
    const text = await chromeText(page);
    for (const english of ['Play', 'Pause', 'Back', 'Next', 'Restart', 'Connect', 'Ask', 'Speed',
      'Follow', 'Settings', 'Question', 'Language', 'Theme', 'Export', 'Import', 'Answer', 'Keys',
      'Wire detail', 'Request headers', 'Response headers', 'Copy', 'Specification', 'done']) {
      check(!new RegExp(`\\b${english}\\b`).test(text), `"${english}" is still on the page`);
    }
    check(text.includes('请求头') && text.includes('复制为 curl'), 'the inspector is not Chinese');
    check((await page.textContent('.mf-inspect .mf-state')) === '完成', 'status word');
  },

  async 'the theme switch sets data-theme and is remembered'(page) {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${need('base')}/`);
    await page.waitForSelector('#mf-theme');
    check((await page.evaluate(() => document.documentElement.dataset.theme)) === undefined, 'auto sets no data-theme');
    const light = await background();
    await page.selectOption('#mf-theme', 'dark');
    check((await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', 'data-theme');
    const dark = await background();
    check(dark !== light, `the background stayed ${dark}`);
    await page.reload();
    await page.waitForSelector('#mf-theme');
    check((await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', 'not remembered');
    check((await page.inputValue('#mf-theme')) === 'dark', 'the picker forgot');
    // Auto follows the system; light wins over a dark system.
    await page.selectOption('#mf-theme', 'auto');
    await page.emulateMedia({ colorScheme: 'dark' });
    check((await background()) === dark, 'auto does not follow a dark system');
    await page.selectOption('#mf-theme', 'light');
    check((await background()) === light, 'light does not override a dark system');
  },

  async 'the layout works at 1024 px and on a phone'(page) {
    const layout = () => page.evaluate(() => {
      const box = (sel) => document.querySelector(sel).getBoundingClientRect();
      return {
        overflow: document.documentElement.scrollWidth - innerWidth,
        bar: box('.mf-player').height,
        diagrams: box('.mf-diagrams'),
        inspector: box('.mf-inspector'),
      };
    });
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${need('base')}/?${instant}`);
    await finished(page);
    let l = await layout();
    check(l.overflow <= 0, `1024: the page scrolls sideways by ${l.overflow}px`);
    check(l.inspector.left >= l.diagrams.right, '1024: the inspector is not beside the diagrams');
    check(l.bar < 60, `1024: the player bar wraps (${l.bar}px)`);
    await page.setViewportSize({ width: 390, height: 844 });
    // Another query string: a change of the hash alone would not load the page again.
    await page.goto(`${need('base')}/?${instant}&lang=en#d1-3`);
    await finished(page);
    l = await layout();
    check(l.overflow <= 0, `390: the page scrolls sideways by ${l.overflow}px`);
    check(l.inspector.top >= l.diagrams.bottom - 1, '390: the inspector is not below the diagrams');
    check(!(await page.evaluate(() => document.querySelector('#mf-settings-panel').open)), '390: settings open');
    // (The row's arrow: the row itself spans the whole diagram, wider than a phone.)
    const at = await placement(page, '.mf-row[data-row="d1-3"] .mf-arrow');
    check(at.inView, `390: the linked row is out of view: ${JSON.stringify(at)}`);
    // The diagrams are drawn at their own scale (labels readable) and scroll sideways in their
    // column, not shrunk to the phone's width.
    const scale = await page.$eval('.mf-diagram', (svg) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
    check(scale > 0.95, `390: the diagram is drawn at ${scale.toFixed(2)} of its size`);
    const column = await page.$eval('.mf-diagrams', (d) => ({ scroll: d.scrollWidth, width: d.clientWidth }));
    check(column.scroll > column.width, `390: the diagrams' column does not scroll: ${JSON.stringify(column)}`);
    await page.screenshot({ path: join(opt.out, 'player-390.png') });
  },

  async 'step mode with the keyboard sends nothing early'(page) {
    await page.goto(`${need('base')}/?mode=step&approve=auto&speed=instant&era=legacy`);
    await page.waitForSelector('g[data-row="d1-1"]');
    await stepUntil(page, async () => (await rows(page))['d2-3'] === 'done');
    const s = await rows(page);
    check(s['d2-3'] === 'done', `stepping did not reach d2-3: ${s['d2-3']}`);
    check(s['d2-7'] === 'pending', `tools/call ran before its row: d2-7 ${s['d2-7']}`);
    await stepUntil(page, async () => (await answer(page)).length > 0);
    check((await answer(page)) === 'The weather in Tokyo is sunny, 22 °C.', `answer: ${await answer(page)}`);
  },

  async 'declining the tool call'(page) {
    await page.goto(`${need('base')}/?speed=instant&approve=ask&autoplay`);
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
    await page.goto(`${need('base')}/?lang=zh&${instant}`);
    await finished(page);
    await allDone(page, ['d2-4', 'd2-5']);
    check((await answer(page)) === '东京的天气是晴天，22 °C。', `answer: ${await answer(page)}`);
    check((await page.textContent('figure')).includes('内置离线模型'), 'the LLM subtitle is not Chinese');
  },

  async 'a deep link reproduces the same view'(page) {
    const q = encodeURIComponent('How is the weather in Paris?');
    const link = `${need('base')}/?q=${q}&${instant}#d2-3`;
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
    await page.goto(`${need('base')}/?server=${encodeURIComponent(`${need('base')}/calc`)}&${instant}`);
    await finished(page);
    await allDone(page, ['d2-4', 'd2-5']);
    const question = await page.inputValue('#mf-question');
    check(question === 'What is 3 times 111?', `question: ${question}`);
    check((await answer(page)).includes('333'), `answer: ${await answer(page)}`);
    await page.screenshot({ path: join(opt.out, 'calculator.png'), fullPage: true });
  },

  async 'typed JSON arguments are judged by the whole inputSchema, and can be sent anyway'(page) {
    const fetched = pieces(page);
    const start = async () => {
      fetched.length = 0;
      await page.goto(`${need('base')}/?llm=you&${instant}`);
      await page.waitForSelector('#mf-you-json-toggle', { timeout: 20_000 });
      check(fetched.some((n) => n.startsWith('split_ui_you')), `the dialog's view was not fetched: ${fetched}`);
      await page.check('#mf-you-json-toggle');
      await page.fill('#mf-you-json', '{"location": "Tokyo", "units": "kelvin"}');
      await page.click('#mf-you-call');
      // Checked in the schema worker (the units are an enum): held back, with the reason.
      await page.waitForSelector('#mf-you-call-anyway', { state: 'visible', timeout: 20_000 });
      const problem = await page.textContent('#mf-you-problem');
      check(problem.includes("inputSchema") && problem.includes('/units') && problem.includes('kelvin'),
        `the check's verdict: ${problem}`);
      check((await rows(page))['d2-7'] !== 'done', 'tools/call went out before the check');
    };
    // Fixed, it goes straight through (and the override is gone with the edit).
    await start();
    await page.fill('#mf-you-json', '{"location": "Tokyo", "units": "fahrenheit"}');
    check(!(await page.isVisible('#mf-you-call-anyway')), 'the override outlived the edit');
    await page.click('#mf-you-call');
    await page.waitForSelector('#mf-you-result', { timeout: 20_000 });
    await page.click('g[data-row="d2-8"]');
    const result = await page.textContent('.mf-inspector');
    check(result.includes('fahrenheit'), `the result is not in the units sent: ${result.slice(0, 300)}`);
    // Sent anyway: the server's own answer to kelvin comes back, on the call's rows.
    await start();
    await page.click('#mf-you-call-anyway');
    await page.waitForFunction(() => {
      const state = document.querySelector('g[data-row="d2-8"]')?.dataset.state;
      return document.querySelector('#mf-you-result') || state === 'done' || state === 'failed';
    }, null, { timeout: 20_000 });
    await page.click('g[data-row="d2-7"]');
    const call = await page.textContent('.mf-inspector');
    check(call.includes('kelvin'), 'the tools/call sent anyway does not carry kelvin');
    // The server judged it: a tool error (isError) naming the arguments, on d2-8, which is done
    // and drawn as a failed tool.
    await page.waitForSelector('g[data-row="d2-8"][data-state="done"]', { timeout: 20_000 });
    const states = await rows(page);
    check(states['d2-7'] === 'done', `sent anyway: d2-7 is ${states['d2-7']}`);
    await page.click('g[data-row="d2-8"]');
    const answered = await page.textContent('.mf-inspector');
    check(answered.includes('isError') && answered.includes('Invalid arguments for get_weather'),
      `the server's answer to kelvin: ${answered.slice(0, 400)}`);
  },

  async "a result is checked against its tool's outputSchema, in a worker started then"(page) {
    need('faulty');
    await page.addInitScript(() => {
      window.__workers = [];
      const Native = window.Worker;
      window.Worker = class extends Native {
        constructor(url, options) {
          super(url, options);
          window.__workers.push(String(url));
        }
      };
    });
    const inspector = async (needle) => {
      await page.waitForFunction(
        (n) => document.querySelector('.mf-inspector')?.textContent.includes(n),
        needle,
        { timeout: 20_000 },
      );
      return page.textContent('.mf-inspector');
    };
    const fetched = pieces(page);
    // The weather server's get_weather declares an outputSchema and keeps to it.
    await page.goto(`${need('base')}/?${instant}#d2-8`);
    await finished(page);
    let shown = await inspector('outputSchema');
    check(shown.includes("matches the tool's outputSchema"), `weather server: ${shown}`);
    let workers = await page.evaluate(() => window.__workers);
    check(workers.some((u) => u.includes('schema-worker')), `workers: ${workers}`);
    check(
      !(await page.$('g[data-row="d2-8"].mf-output-mismatch')),
      'a valid result is drawn as a mismatch',
    );
    // A server whose result breaks its own schema: said on the row and in the inspector.
    const server = `${need('faulty')}/fault/output-mismatch/mcp`;
    await page.goto(`${need('base')}/?server=${encodeURIComponent(server)}&${instant}#d2-8`);
    await confirmLinkOnce(page);
    await finished(page);
    shown = await inspector('does not match');
    check(
      shown.includes("does not match the tool's outputSchema (1 violation): /temperature"),
      `mismatch: ${shown}`,
    );
    check(shown.includes('"hot"'), `the violation names the value: ${shown}`);
    check(await page.$('g[data-row="d2-8"].mf-output-mismatch'), 'the row does not show the mismatch');
    // The user's one yes holds for this page: Ask again calls the tool with no dialog.
    // (The first run's d2-4 was done, the user's yes; the second's is skipped, no dialog.)
    check(await page.$('g[data-row="d2-4"][data-state="done"]'), 'the first call did not ask');
    await page.click('#mf-ask');
    await page.waitForSelector('g[data-row="d2-4"][data-state="skipped"]', { timeout: 20_000 });
    await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('g[data-row="d2-8"]')?.dataset.state),
      null, { timeout: 20_000 });
    // A run does not fetch the checker before it is needed: none while the run waits for
    // the user's yes (d2-4), before any result; one once the result is in.
    await page.goto(`${need('base')}/?speed=instant&era=legacy`);
    await page.click('#mf-play');
    await page.waitForSelector('#mf-yes', { timeout: 20_000 });
    workers = await page.evaluate(() => window.__workers);
    check(workers.length === 0, `a worker started before any result: ${workers}`);
    await page.click('#mf-yes');
    await finished(page);
    workers = await page.evaluate(() => window.__workers);
    check(workers.some((u) => u.includes('schema-worker')), `no checker after the result: ${workers}`);
  },

  async "a result's content blocks, each by its kind"(page) {
    need('faulty');
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const server = `${need('faulty')}/fault/content-kinds/mcp`;
    await page.goto(`${need('base')}/?server=${encodeURIComponent(server)}&${instant}#d2-8`);
    await confirmLinkOnce(page);
    await finished(page);
    await page.waitForSelector('.mf-content .mf-block', { timeout: 20_000 });
    const kinds = await page.$$eval('.mf-content .mf-block', (bs) => bs.map((b) => b.dataset.kind));
    check(JSON.stringify(kinds) === JSON.stringify(['text', 'image', 'audio', 'resource_link', 'resource', 'image']),
      `kinds: ${kinds}`);
    // The image is drawn (one pixel, decoded under the page's policy), the audio has its player.
    await page.waitForFunction(() =>
      document.querySelector('.mf-block[data-kind="image"] img')?.naturalWidth === 1);
    check(await page.$('.mf-block[data-kind="audio"] audio[controls]'), 'no audio player');
    const text = await page.textContent('.mf-content');
    for (const want of ['audience: user, assistant', 'priority: 0.9', 'image/png, 69 bytes',
      'weather://tokyo/forecast', 'Tokyo, the next 7 days', 'weather://tokyo/today', 'Sunny, 22 °C',
      '"text/html" is not image/']) {
      check(text.includes(want), `the content blocks lack ${want}: ${text}`);
    }
    // The block that lies about its type is described, never rendered.
    check((await page.$$('.mf-content img')).length === 1, 'the text/html "image" was rendered');
    const violations = await page.evaluate(() => window.__violations);
    check(violations.length === 0, `policy violations: ${violations}`);
    await page.screenshot({ path: join(opt.out, 'content-kinds.png'), fullPage: true });
  },

  async 'the Content-Security-Policy forbids inline script and the app runs under it'(page) {
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto(`${need('base')}/?${instant}`);
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
    // The HAR and Mermaid writers and the recording's reader are split out of the first load
    // (xtask/src/split.rs): fetched on first use, not before.
    const fetched = pieces(page);
    await page.goto(`${need('base')}/?${instant}`);
    await finished(page);
    // A run with the offline model fetches no module of the authorization, the fourth diagram,
    // the other models, the exports, the in-page model, the server's questions or the views it
    // does not show (comparison, forms, the You dialog, the
    // closed panels).
    const early = fetched.filter((n) => /^split_(authorize|browse|models|export|import|smollm|server_questions|ui_)/.test(n));
    check(early.length === 0, `modules fetched that this run does not need: ${early.join(', ')}`);
    // The run's module: the engine (MCP client, host, models), the inspector's row details and
    // the output check's reader.
    check(fetched.some((n) => n.startsWith('split_run')), `the run's module: ${fetched.join(', ')}`);
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
    check(rec.run.rows.some((r) => r.id === 'd2-8' && r.payload?.kind === 'tool_result'), 'no typed tool_result payload on d2-8');
    const har = JSON.parse((await save('#mf-export-har')).text);
    check(har.log.version === '1.2', 'HAR version');
    check(har.log.entries.some((e) => e.request.postData?.text.includes('tools/call')), 'HAR lacks tools/call');
    check(har.log.entries.every((e) => !Number.isNaN(Date.parse(e.startedDateTime))), 'HAR dates');
    const mmd = (await save('#mf-export-mermaid')).text;
    check(mmd.includes('```mermaid\nsequenceDiagram\n'), 'Mermaid block');
    check(mmd.includes('{"location":"Tokyo"}'), 'Mermaid lacks the real arguments');
    check(fetched.some((n) => n.startsWith('split_export')),
      `the exports' modules were not fetched on demand: ${fetched.join(', ')}`);
    check(!fetched.some((n) => n.startsWith('split_import_recording')), 'the reader was fetched without an import');
    // The message log and the connection panel are closed <details>: their bodies (one module)
    // are fetched when the user first opens one, and show this run.
    check(!fetched.some((n) => n.startsWith('split_ui_panels')), 'the panels fetched before one was opened');
    for (const [panel, body] of [
      ['#mf-message-log', '#mf-log-rows tr'],
      ['#mf-connection', '#mf-connection-facts'],
    ]) {
      await page.click(`${panel} > summary`);
      await page.waitForSelector(`${panel} ${body}`, { timeout: 20_000 });
    }
    check(fetched.filter((n) => n.startsWith('split_ui_panels')).length === 1,
      `the panels' module, once for both: ${fetched.join(', ')}`);
    check((await page.textContent('#mf-log-rows')).includes('tools/call'), 'the opened log lacks tools/call');
    check((await page.textContent('#mf-connection-facts')).includes('weather-server'), 'the opened panel lacks the server');

    // A fresh page loads the recording: labelled, same rows and answer, nothing sent.
    const fresh = await page.context().newPage();
    const sent = [];
    fresh.on('request', (r) => { if (r.method() === 'POST') sent.push(r.url()); });
    const freshFetched = pieces(fresh);
    await fresh.goto(`${need('base')}/`);
    await fresh.setInputFiles('#mf-import', json.path);
    await fresh.waitForSelector('#mf-recording');
    check(freshFetched.some((n) => n.startsWith('split_import_recording')), `the reader's module was not fetched: ${freshFetched.join(', ')}`);
    check((await answer(fresh)) === 'The weather in Tokyo is sunny, 22 °C.', `imported answer: ${await answer(fresh)}`);
    check(JSON.stringify(await rows(fresh)) === JSON.stringify(await rows(page)), 'imported rows differ');
    check(sent.length === 0, `the recording sent requests: ${sent.join(', ')}`);
    // The recording's timeline is the live run's: the same spans, rows, lanes and places.
    const spans = (p) => p.$$eval('#mf-timeline g[data-span]', (gs) => gs.map((g) => {
      const r = g.querySelector('rect');
      return [g.dataset.span, g.dataset.row ?? null, g.dataset.lane, r.getAttribute('x'), r.getAttribute('width')];
    }));
    for (const p of [page, fresh]) {
      await p.click('#mf-timeline > summary');
      await p.waitForSelector('#mf-timeline g[data-span]');
    }
    const live = await spans(page);
    const imported = await spans(fresh);
    // Places to a hundredth of a unit: a time read back from JSON may differ in its last bit.
    const same = (a, b) => a.length === b.length && a.every((x, i) => x.every((v, j) =>
      j < 3 ? v === b[i][j] : Math.abs(Number(v) - Number(b[i][j])) < 0.01));
    check(live.length > 0 && same(imported, live),
      `the recording's timeline differs: ${JSON.stringify(imported)} vs ${JSON.stringify(live)}`);
    await fresh.close();
  },

  async 'a module that cannot be fetched fails where it is needed, with a message, and the page lives on'(page) {
    // The page's server is "gone" for the exports' module: the export says so instead of
    // aborting the wasm app (a failed load must not panic), and a later click fetches it again.
    let refused = 0;
    await page.route(/\/split_export[^/]*\.wasm$/, (route) => { refused++; return route.abort('connectionrefused'); });
    await page.goto(`${need('base')}/?${instant}`);
    await finished(page);
    await page.click('#mf-export-har');
    await page.waitForFunction(() => document.querySelector('#mf-share-message')?.textContent.includes('could not be fetched'));
    const message = await page.textContent('#mf-share-message');
    check(message.startsWith('mcp-flow-run.har: '), `the message does not name the file: ${message}`);
    check(refused >= 1, 'the module was never asked for');
    // The app still answers: the player makes a whole new run.
    const calls = [];
    page.on('request', (r) => { if (r.method() === 'POST' && (r.postData() ?? '').includes('"tools/call"')) calls.push(r.url()); });
    await page.click('#mf-restart');
    await page.waitForFunction(() => (document.querySelector('#mf-answer')?.textContent.trim().length ?? 0) > 0
      && document.querySelector('g[data-row="d2-8"]')?.dataset.state === 'done');
    check(calls.length === 1, `the run after the failure sent ${calls.length} tools/call requests`);
    check((await answer(page)) === 'The weather in Tokyo is sunny, 22 °C.', `answer after the failure: ${await answer(page)}`);
    // The server is back: the same button fetches the module and saves the file.
    await page.unroute(/\/split_export[^/]*\.wasm$/);
    const [har] = await Promise.all([page.waitForEvent('download'), page.click('#mf-export-har')]);
    check(har.suggestedFilename() === 'mcp-flow-run.har', `after the retry: ${har.suggestedFilename()}`);

    // The run's module (MCP client, host, models, the inspector's row details) is fetched when a
    // run starts, not with the page; if it cannot be fetched, the run fails at its first row
    // with that reason.
    await page.unrouteAll();
    const idle = await page.context().newPage();
    const idleFetched = pieces(idle);
    await idle.route(/\/split_run[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    await idle.goto(`${need('base')}/?speed=instant&approve=auto`);
    await idle.waitForSelector('#mf-play');
    check(!idleFetched.some((n) => n.startsWith('split_run')), `the run's module came with the page: ${idleFetched.join(', ')}`);
    await idle.click('#mf-play');
    await idle.waitForSelector('g[data-row="d1-prep"][data-state="failed"]', { timeout: 20_000 });
    const engineError = await idle.textContent('#mf-error');
    check(engineError.includes('could not be fetched') && engineError.includes('runs the protocol'),
      `the first row says: ${engineError}`);
    // The inspector went to the failed row; its details need the same module, and say so.
    check((await idle.textContent('.mf-inspector')).includes('could not be fetched'),
      `the inspector: ${await idle.textContent('.mf-inspector')}`);
    await idle.unrouteAll();
    await idle.click('#mf-restart');
    await idle.waitForFunction(() => document.querySelector('g[data-row="d2-8"]')?.dataset.state === 'done', null, { timeout: 20_000 });
    check((await answer(idle)) === 'The weather in Tokyo is sunny, 22 °C.', `after the engine came: ${await answer(idle)}`);
    await idle.close();

    // In the middle of a run: the reader of the server's questions cannot be fetched. The row of
    // the tool call fails with that reason (not the server's fault), and nothing hangs.
    await page.route(/\/split_server_questions[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    const q = encodeURIComponent("What's the weather in Springfield?");
    await page.goto(`${need('base')}/?era=modern&q=${q}&speed=instant&approve=auto&autoplay`);
    await page.waitForSelector('g[data-row][data-state="failed"]', { timeout: 20_000 });
    const error = await page.textContent('#mf-error');
    check(error.includes('could not be fetched') && error.includes('input_required'), `the failed row says: ${error}`);
    check((await page.$('#mf-form-title')) === null, 'a form was shown without its reader');
    // In 2025-11-25 the question comes on the stream: it is declined, and its row says why.
    await page.goto(`${need('base')}/?era=legacy&q=${q}&speed=instant&approve=auto&autoplay`);
    await page.waitForFunction(() => document.querySelector('g[data-row="d2-elicit-reply"]')?.dataset.state === 'done'
      || document.querySelector('g[data-row][data-state="failed"]') !== null, null, { timeout: 20_000 });
    await page.click('g[data-row="d2-elicit"]');
    const declined = await page.textContent('.mf-inspector');
    check(declined.includes('could not be read, so it is declined') && declined.includes('could not be fetched'),
      `legacy: the question's row says ${declined.slice(0, 400)}`);
    check((await page.$('#mf-form-title')) === null, 'legacy: a form was shown without its reader');

    // The fourth diagram's walk cannot be fetched: its first row fails with that reason.
    await page.unrouteAll();
    await page.route(/\/split_browse[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    await page.goto(`${need('base')}/?speed=instant&approve=auto`);
    await page.click('#mf-connection > summary');
    await page.click('#mf-browse');
    await page.waitForSelector('g[data-row="r-1"][data-state="failed"]', { timeout: 20_000 });
    const browseError = await page.textContent('#mf-error');
    check(browseError.includes('could not be fetched') && browseError.includes('resources, prompts and tasks'),
      `the walk's first row says: ${browseError}`);

    // A protected server asks for authorization and the flow's module cannot be fetched: the
    // request the server refused fails with that reason, and no consent is asked.
    await page.unrouteAll();
    await page.route(/\/split_authorize[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    await page.goto(`${need('auth-base')}/?speed=instant&approve=auto&autoplay`);
    await page.waitForSelector('g[data-row][data-state="failed"]', { timeout: 20_000 });
    const authError = await page.textContent('#mf-error');
    check(authError.includes('could not be fetched') && authError.includes('authorizes'), `the refused request's row says: ${authError}`);
    check((await page.$('#mf-auth-open')) === null, 'the consent was asked without the flow');

    // A view fetched on demand (the comparison of the eras): said in its place, with Try again.
    await page.unrouteAll();
    await page.route(/\/split_ui_compare[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    await page.goto(`${need('base')}/?speed=instant&approve=auto`);
    await page.click('#mf-compare-button');
    await page.waitForSelector('.mf-not-loaded', { timeout: 20_000 });
    const said = await page.textContent('.mf-not-loaded');
    check(said.includes('could not be fetched'), `in place of the comparison: ${said}`);
    await page.unrouteAll();
    await page.click('.mf-not-loaded .mf-retry');
    await page.waitForSelector('#mf-compare-table', { timeout: 40_000 });
    check((await page.$('.mf-not-loaded')) === null, 'the failure is still shown after the retry');
  },
};

const chosen = Object.entries(scenarios).filter(([name]) => !opt.only || name.includes(opt.only));
if (opt.list) {
  for (const [name] of chosen) console.log(name);
  console.log(`${chosen.length} scenarios`);
  process.exit(0);
}

// Without a browser every scenario fails with that reason; none is left uncounted.
let browser = null;
let noBrowser = null;
try {
  browser = await launchChromium();
} catch (err) {
  noBrowser = `Chromium did not start: ${err.message.split('\n')[0]}`;
}

const failures = await runAll(chosen, {
  browser,
  noBrowser,
  onFailure: (name, page) =>
    page.screenshot({ path: join(opt.out, `failed-${name.replace(/\W+/g, '-')}.png`), fullPage: true }),
});
await browser?.close();
process.exit(failures || chosen.length === 0 ? 1 : 0);
