// MCP Apps in the page: our weather server's card for get_weather, rendered through the sandbox
// proxy on the page's other loopback name, its conversation drawn as the App diagram, its own
// button calling the tool through the host; and the policy that keeps an app off the network.
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import { appRows, rows, finished } from '../lib/page.mjs';

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

/** Waits until `row` is done (or fails the scenario with the page's error line). */
async function done(page, row) {
  await page.waitForSelector(`g[data-row="${row}"][data-state="done"], g[data-row="${row}"][data-state="failed"]`, { timeout: 20_000 });
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
      // The card follows the page's theme through the extension's variables.
      const background = await card.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const pageBackground = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--mf-bg').trim());
      check(background.length > 0 && pageBackground.length > 0, `${spoken}: ${background} / ${pageBackground}`);
      // The frame's own process paints on its own time.
      await page.waitForTimeout(300);
      await page.locator('#mf-app-panel').screenshot({ path: join(opt.out, `app-panel-${spoken}.png`) });
      // Its button asks the host for the tool in Fahrenheit: drawn through to the server.
      await card.click('#units');
      await card.waitForFunction(() => document.querySelector('#temp').textContent.endsWith('°F'), null, { timeout: 20_000 });
      for (const row of ['app-10', 'app-11', 'app-12', 'app-13']) await done(page, row);
      await page.locator('#mf-dp').screenshot({ path: join(opt.out, `app-diagram-${spoken}.png`) });
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

  async "the reference server-basic-vanillajs from a ?call= link: its app renders and its buttons go through the host, both eras"(page) {
    const server = encodeURIComponent(need('basic-app'));
    for (const spoken of ['modern', 'legacy']) {
      await page.goto(`${need('base')}/?server=${server}&era=${spoken}&call=get-time&args=%7B%7D&speed=instant&approve=auto&autoplay`);
      await finished(page);
      const app = await appFrame(page);
      await app.waitForSelector('#get-time-btn', { timeout: 20_000 });
      for (const row of ['app-1', 'app-2', 'app-3', 'app-4', 'app-5', 'app-6', 'app-7', 'app-8']) await done(page, row);
      // Its own button: get-time called through the host, drawn through to the server.
      const before = await app.textContent('#server-time');
      await app.click('#get-time-btn');
      await app.waitForFunction((was) => {
        const now = document.querySelector('#server-time').textContent;
        return now !== was && /\d{4}-\d{2}-\d{2}T/.test(now);
      }, before, { timeout: 20_000 });
      for (const row of ['app-10', 'app-11', 'app-12', 'app-13']) await done(page, row);
      // Its log line goes into the server log.
      await app.click('#send-log-btn');
      await done(page, 'app-14');
      // Its link: offered to the user, who declines here.
      await app.click('#open-link-btn');
      await page.waitForSelector('#mf-app-link', { timeout: 10_000 });
      check((await page.textContent('#mf-app-link code')).startsWith('https://modelcontextprotocol.io'), 'the link shown');
      await page.click('#mf-app-link-no');
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
