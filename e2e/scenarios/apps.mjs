// MCP Apps in the page: our weather server's card for get_weather, rendered through the sandbox
// proxy on the page's other loopback name, its conversation drawn as the App diagram, its own
// button calling the tool through the host; and the policy that keeps an app off the network.
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import { sel, appRows, rows, finished } from '../lib/page.mjs';

/** The app's own document: the inner frame the proxy made (`about:srcdoc`). */
async function appFrame(page) {
  await page.waitForSelector('#mf-app-frame', { timeout: 20_000 });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const inner = page.frames().find((f) => f.url() === 'about:srcdoc');
    if (inner) return inner;
    await page.waitForTimeout(50);
  }
  throw new Error('the proxy rendered no app');
}

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
