// MCP Apps in the page: our weather server's card for get_weather, rendered through the sandbox
// proxy on the page's other loopback name, its conversation drawn as the App diagram, its own
// button calling the tool through the host; and the policy that keeps an app off the network.
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import { sel, appRows, appFrame, rows, finished } from '../lib/page.mjs';


// A frame of another process may get no animation frames while the page is in the background:
// the waits in an app's frame poll.

/** Presses a control of the app. A click dispatched in the app's document: a pointer click
 * at coordinates can miss while the frame is being resized. */
const press = (frame, selector) => frame.locator(selector).dispatchEvent('click');

/** Waits until `row` is done (or fails the scenario with the page's error line). */
async function done(page, row) {
  const finished = `g[data-row="${row}"][data-state="done"], g[data-row="${row}"][data-state="failed"]`;
  await page.waitForSelector(finished, { timeout: 20_000 }).catch(async () => {
    throw new Error(`${row} did not finish: ${(await appRows(page))[row]}`);
  });
  const state = (await appRows(page))[row];
  check(state === 'done', `${row}: ${state}: ${await page.textContent('#mf-error')}`);
}

export default {
  async "the weather card: the default run renders get_weather's app and its button calls the tool through the host, both eras"(page) {
    for (const spoken of ['modern', 'legacy']) {
      await page.goto(`${need('base')}/?era=${spoken}&speed=instant&approve=auto&autoplay`);
      await finished(page);
      const card = await appFrame(page);
      await card.waitForSelector('#temp:not(:empty)', { timeout: 20_000 });
      const place = await card.textContent('#place');
      check(place.includes('Tokyo'), `${spoken}: the card's city: ${place}`);
      check((await card.textContent('#temp')) === '22°C', `${spoken}: ${await card.textContent('#temp')}`);
      for (const row of ['app-1', 'app-2', 'app-3', 'app-4', 'app-5', 'app-6', 'app-7', 'app-8', 'app-9']) {
        await done(page, row);
      }
      // Another origin than the page's: the proxy under the other loopback name, the app opaque.
      const proxy = page.frames().find((f) => f.url().includes('/sandbox/'));
      const proxyOrigin = await proxy.evaluate(() => window.origin);
      check(proxyOrigin !== new URL(page.url()).origin && /^http:\/\/(localhost|127\.0\.0\.1):/.test(proxyOrigin),
        `${spoken}: the proxy runs on ${proxyOrigin}`);
      check((await card.evaluate(() => window.origin)) === 'null', `${spoken}: the app's origin is not its own`);
      // The card follows the page's theme: the host hands it the page's colours as the extension's
      // variables, and its background is drawn from them.
      const pageBackground = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--mf-bg').trim());
      const given = await card.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-background-primary').trim());
      check(pageBackground.length > 0 && given === pageBackground, `${spoken}: the card got ${given}, the page is ${pageBackground}`);
      const drawn = await card.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const expected = await page.evaluate((c) => { const el = document.createElement('i'); el.style.color = c; document.body.append(el); const rgb = getComputedStyle(el).color; el.remove(); return rgb; }, pageBackground);
      check(drawn === expected, `${spoken}: the card's background ${drawn}, the page's ${expected}`);
      // The page turns dark: the host tells the app, which follows.
      const theme = await page.inputValue('#mf-theme');
      await page.selectOption('#mf-theme', 'dark');
      await done(page, 'app-19');
      await card.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: 10_000, polling: 100 });
      await page.selectOption('#mf-theme', theme);
      // Its button asks the host for the tool in Fahrenheit: drawn through to the server.
      await press(card, '#units');
      await card.waitForFunction(() => document.querySelector('#temp').textContent.endsWith('°F'), null, { timeout: 20_000, polling: 100 });
      for (const row of ['app-10', 'app-11', 'app-12', 'app-13']) await done(page, row);
      await page.locator('#mf-dp').screenshot({ path: join(opt.out, `app-diagram-${spoken}.png`) });
      // The panel as the page shows it, its frame (another process) composited in.
      await page.locator('#mf-app-panel').scrollIntoViewIfNeeded();
      await page.waitForTimeout(500);
      const box = await page.locator('#mf-app-panel').boundingBox();
      if (box) await page.screenshot({ path: join(opt.out, `app-panel-${spoken}.png`), clip: box });
    }
  },

  async "a ?call= link calls the tool without a model and renders its app, both eras"(page) {
    const args = encodeURIComponent(JSON.stringify({ location: 'Paris' }));
    for (const spoken of ['modern', 'legacy']) {
      await page.goto(`${need('base')}/?era=${spoken}&call=get_weather&args=${args}&speed=instant&approve=auto&autoplay`);
      await finished(page);
      const s = await rows(page);
      for (const id of ['d2-1', 'd2-2', 'd2-3', 'd2-10', 'd2-11']) check(s[id] === 'skipped', `${spoken}: ${id} ${s[id]}`);
      for (const id of ['d2-6', 'd2-7', 'd2-8', 'd2-9', 'd2-12']) check(s[id] === 'done', `${spoken}: ${id} ${s[id]}`);
      const card = await appFrame(page);
      await card.waitForSelector('#temp:not(:empty)', { timeout: 20_000 });
      const place = await card.textContent('#place');
      check(place.includes('Paris'), `${spoken}: the card's city: ${place}`);
    }
  },

  async "the connection panel's form calls a tool without the model, as ?call= does"(page) {
    await page.goto(`${need('base')}/?speed=instant&approve=auto&autoplay`);
    await finished(page);
    await appFrame(page);
    await page.click('#mf-connection > summary');
    await page.waitForSelector('#mf-call-form', { timeout: 20_000 });
    await page.selectOption('#mf-call-tool', 'get_weather');
    await page.fill('#mf-call-args', '{"location": "Paris"}');
    await page.click('#mf-call');
    await page.waitForSelector('g[data-row="d2-2"][data-state="skipped"]', { timeout: 20_000 });
    await finished(page);
    const card = await appFrame(page);
    await card.waitForFunction(() => document.querySelector('#place').textContent.includes('Paris'), null, { timeout: 20_000, polling: 100 });
    check((await rows(page))['d2-7'] === 'done', 'd2-7 did not run');
  },

  async "the reference server-basic-vanillajs from a ?call= link: its app renders and its buttons go through the host"(page) {
    const server = encodeURIComponent(need('basic-app'));
    // Its SDK (TypeScript v2.0.0) speaks up to 2025-11-25: auto probes 2026-07-28 and falls back.
    for (const spoken of ['auto', 'legacy']) {
      await page.goto(`${need('base')}/?server=${server}&era=${spoken}&call=get-time&args=%7B%7D&speed=instant&approve=auto&autoplay`);
      // A link's approve=auto for a server that is not the page's own asks (once).
      const asks = await Promise.race([
        page.waitForSelector(sel.yes, { timeout: 20_000 }).then(() => true),
        finished(page).then(() => false),
      ]);
      if (asks) await page.click(sel.yes);
      await finished(page);
      const app = await appFrame(page);
      await app.waitForSelector('#get-time-btn', { timeout: 20_000 });
      for (const row of ['app-1', 'app-2', 'app-3', 'app-4', 'app-5', 'app-6', 'app-7', 'app-8']) await done(page, row);
      // Its own button: get-time called through the host, drawn through to the server.
      // The tool's result, shown once the host handed it over (tool-result).
      const iso = /^\d{4}-\d{2}-\d{2}T/;
      await app.waitForFunction((re) => new RegExp(re).test(document.querySelector('#server-time').textContent), iso.source, { timeout: 20_000, polling: 100 });
      const before = await app.textContent('#server-time');
      await press(app, '#get-time-btn');
      await app.waitForFunction((was) => {
        const now = document.querySelector('#server-time').textContent;
        return now !== was && /^\d{4}-\d{2}-\d{2}T/.test(now);
      }, before, { timeout: 20_000, polling: 100 });
      for (const row of ['app-10', 'app-11', 'app-12', 'app-13']) await done(page, row);
      // Its log line goes into the server log.
      await press(app, '#send-log-btn');
      await done(page, 'app-14');
      // Its link: offered to the user, opened by the user's click in a new tab without an opener
      // (answered here by a stand-in: nothing leaves the machine).
      await page.context().route('https://modelcontextprotocol.io/**', (r) =>
        r.fulfill({ status: 200, contentType: 'text/html', body: '<p>stand-in</p>' }));
      await press(app, '#open-link-btn');
      await page.waitForSelector('#mf-app-link', { timeout: 10_000 }).catch(async () => {
        throw new Error(`no link offered: ${JSON.stringify(await appRows(page))}`);
      });
      check((await page.textContent('#mf-app-link code')).startsWith('https://modelcontextprotocol.io'), 'the link shown');
      const [tab] = await Promise.all([page.context().waitForEvent('page'), page.click('#mf-app-link-open')]);
      await tab.waitForLoadState();
      check(tab.url().startsWith('https://modelcontextprotocol.io'), `the tab: ${tab.url()}`);
      check(await tab.evaluate(() => window.opener === null), 'the opened page sees window.opener');
      await tab.close();
      await done(page, 'app-18');
      await page.locator('#mf-app-panel').screenshot({ path: join(opt.out, `app-basic-${spoken}.png`) });
    }
  },

  async "the run's end tears the app down: ui/resource-teardown reaches it, answered, before the next run"(page) {
    await page.goto(`${need('base')}/?speed=instant&approve=auto&autoplay`);
    await finished(page);
    // The app's console is the page's in Playwright: it says what reached it, and when.
    const heard = [];
    page.on('console', (m) => {
      const said = /^mf-heard (\d+) (.*)$/.exec(m.text());
      if (said) heard.push({ at: Number(said[1]), what: said[2] });
    });
    const listen = (frame) => frame.evaluate(() => addEventListener('message', (e) => {
      if (e.data && e.data.method === 'ui/resource-teardown') console.log(`mf-heard ${Date.now()} ${e.data.params.reason}`);
    }));
    const card = await appFrame(page);
    await card.waitForSelector('#temp:not(:empty)', { timeout: 20_000 });
    await listen(card);
    // When the page sends its next request (the wasm calls the global fetch).
    await page.evaluate(() => {
      const send = window.fetch;
      window.fetch = (...args) => { window.mfFirstFetch ??= Date.now(); return send(...args); };
    });
    // A new run: the old run's app hears the teardown before the new run sends anything. Until
    // the new run's first request, the page still shows the last run's answer and card.
    await page.click(sel.restart);
    await page.waitForFunction(() => window.mfFirstFetch !== undefined, null, { timeout: 20_000 });
    await finished(page);
    const next = await appFrame(page);
    await next.waitForSelector('#temp:not(:empty)', { timeout: 20_000 });
    const firstFetch = await page.evaluate(() => window.mfFirstFetch);
    const first = heard[0];
    check(first && first.what === 'a new run starts', `the app heard: ${JSON.stringify(heard)}`);
    check(firstFetch && first.at <= firstFetch, `the new run sent at ${firstFetch}, the teardown came at ${first.at}`);
    // Closing it in the page: the same request with the user's reason, drawn on app-20 and app-21.
    await listen(next);
    await page.click('#mf-app-close');
    await done(page, 'app-20');
    await done(page, 'app-21');
    await page.waitForSelector('#mf-app-frame', { state: 'detached', timeout: 10_000 });
    check(heard.some((h) => h.what === 'the user closed the app'), `closing: ${JSON.stringify(heard)}`);
  },

  async "an app that misbehaves is refused or bounded, each said on its row, and the page stays responsive"(page) {
    await page.goto(`${need('base')}/?speed=instant&approve=auto&autoplay`);
    await finished(page);
    const card = await appFrame(page);
    await card.waitForSelector('#temp:not(:empty)', { timeout: 20_000 });
    // Everything below is posted from the app's own document, through the real proxy.
    const answers = await card.evaluate(async () => {
      const answers = {};
      addEventListener('message', (e) => {
        const d = e.data;
        if (d && typeof d.id === 'string' && d.id.startsWith('mf-bad-')) answers[d.id] = d;
      });
      const post = (m) => parent.postMessage(m, '*');
      // A flood: 3,000 log lines at once (well over 10,000 a second; more than the page queues).
      const started = performance.now();
      for (let i = 0; i < 3_000; i++) {
        post({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `flood ${i}` } });
      }
      answers.perSecond = Math.round(3_000 / ((performance.now() - started) / 1000));
      // The browser delivers them over seconds; the host drops what passes its rate. Once a ping
      // is answered again, the flood is over: then malformed JSON-RPC, a tool the server does not
      // have, a javascript: link, a frame a million pixels high, and a last ping.
      const pingedAt = Date.now();
      for (let n = 0; !Object.keys(answers).some((id) => id.startsWith('mf-bad-ping-')); n++) {
        if (Date.now() - pingedAt > 60_000) return { flood: 'no ping answered within 60 s' };
        post({ jsonrpc: '2.0', id: `mf-bad-ping-${n}`, method: 'ping' });
        await new Promise((r) => setTimeout(r, 500));
      }
      answers.recoveredMs = Date.now() - pingedAt;
      await new Promise((r) => setTimeout(r, 1_000));
      post({ jsonrpc: '2.0', id: 'mf-bad-malformed', method: 42 });
      post({ jsonrpc: '2.0', id: 'mf-bad-tool', method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
      post({ jsonrpc: '2.0', id: 'mf-bad-link', method: 'ui/open-link', params: { url: 'javascript:alert(1)' } });
      post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 300, height: 1_000_000 } });
      post({ jsonrpc: '2.0', id: 'mf-bad-ping', method: 'ping' });
      const deadline = Date.now() + 15_000;
      while (!['mf-bad-malformed', 'mf-bad-tool', 'mf-bad-link', 'mf-bad-ping'].every((id) => id in answers) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return answers;
    });
    check(!answers.flood, answers.flood);
    console.log(`    a flood at ${answers.perSecond} messages a second; the host answered a ping again ${answers.recoveredMs} ms after it was posted`);
    check(answers.perSecond > 10_000, `the flood was only ${answers.perSecond} a second`);
    const said = (id) => JSON.stringify(answers[id]);
    check(answers['mf-bad-malformed']?.error?.code === -32600, `malformed: ${said('mf-bad-malformed')}`);
    check(/not a tool of this server/.test(answers['mf-bad-tool']?.error?.message ?? ''), `the unknown tool: ${said('mf-bad-tool')}`);
    check(/Invalid URL/.test(answers['mf-bad-link']?.error?.message ?? ''), `the javascript: link: ${said('mf-bad-link')}`);
    check(answers['mf-bad-ping'] && 'result' in answers['mf-bad-ping'], `the ping after the flood: ${said('mf-bad-ping')}`);
    // Said on their rows.
    const title = (row) => page.textContent(`#mf-dp g[data-row="${row}"] title`);
    const states = await appRows(page);
    check(states['app-10'] === 'failed' && /no_such_tool/.test(await title('app-10')), `app-10: ${states['app-10']} ${await title('app-10')}`);
    check(states['app-17'] === 'failed' && /javascript:/.test(await title('app-17')), `app-17: ${states['app-17']} ${await title('app-17')}`);
    // Bounded: the frame no higher than the host's limit; no link offered to the user.
    const height = await page.$eval('#mf-app-frame', (f) => f.getBoundingClientRect().height);
    check(height <= 800, `the frame is ${height} px high`);
    check(!(await page.$('#mf-app-link')), 'a javascript: link was offered');
    // The flood's drop belongs to no row: said with the render's (where the timeline's App span leads).
    await page.click('#mf-dp g[data-row="app-3"]');
    await page.waitForFunction(() => document.querySelector('.mf-inspector')?.textContent.includes('more than 20 a second'), null, { timeout: 10_000 })
      .catch(() => { throw new Error('the flood was not said at app-3'); });
    // Responsive: the page still changes its theme and the app still hears of it.
    const theme = await page.inputValue('#mf-theme');
    await page.selectOption('#mf-theme', theme === 'dark' ? 'light' : 'dark');
    await done(page, 'app-19');
    await page.selectOption('#mf-theme', theme);
  },

  async "an app's request to a domain it did not declare is refused by its policy"(page) {
    await page.goto(`${need('base')}/?speed=instant&approve=auto&autoplay`);
    await finished(page);
    const card = await appFrame(page);
    await card.waitForSelector('#temp:not(:empty)', { timeout: 20_000 });
    // The card declares no domains: even the server it came from is out of reach.
    const outcome = await card.evaluate(async (url) => {
      const violations = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
      try {
        await fetch(url, { method: 'POST', body: '{}' });
        return { fetched: true, violations };
      } catch (e) {
        await new Promise((r) => setTimeout(r, 100));
        return { fetched: false, error: String(e), violations };
      }
    }, `${need('base')}/mcp`);
    check(!outcome.fetched, `the app reached the network: ${JSON.stringify(outcome)}`);
    check(outcome.violations.includes('connect-src'), `no connect-src violation: ${JSON.stringify(outcome)}`);
  },
};
