// Authorization: the Tokyo run against a protected server, consent in a popup, a step-up and a
// refresh, with the built-in demo authorization server and with oidc-provider.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import { sel, rows, answer, finished, pieces, era, openSettings, instant } from '../lib/page.mjs';

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
    if (!(await page.isVisible(sel.clientId))) await page.click('#mf-advanced > summary');
    await page.fill(sel.clientId, opt['oidc-client']);
  }
  await page.click(sel.play);
  for (const round of [1, 2]) {
    await page.waitForSelector(sel.authOpen, { timeout: 20_000 });
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
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.click(sel.authOpen)]);
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
    await page.waitForSelector(sel.authOpen, { state: 'detached', timeout: 20_000 });
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

/** Once the run's access token has run out (the servers give short-lived ones), Ask again
 * refreshes it at `tokenPath` first, with no consent, and the question goes through. */
async function refreshedAsk(page, tokenPath) {
  let refreshes = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === tokenPath && /grant_type=refresh_token/.test(request.postData() ?? '')) refreshes++;
  });
  await page.waitForTimeout(Number(opt['token-secs']) * 1000 + 500);
  await page.click(sel.ask);
  await page.waitForFunction(() => document.querySelector("g[data-row='a-refresh-result']")?.dataset.state === 'done',
    null, { timeout: 20_000 });
  await finished(page);
  check(/sunny/i.test(await answer(page)), `after the refresh: ${await answer(page)}`);
  check((await page.$(sel.authOpen)) === null, 'a refresh asked the user to consent');
  check(refreshes === 1, `refresh requests after Ask: ${refreshes}`);
}

export default {
  async 'Authorization: the Tokyo run against a protected server, consent in a popup and a step-up, both eras'(page) {
    await authorizedTokyo(page, 'legacy');
    await page.goto('about:blank');
    await authorizedTokyo(page, 'modern');
    await page.locator(sel.da).screenshot({ path: join(opt.out, 'authorization.png') });
    await refreshedAsk(page, '/oauth/token');
  },

  async 'Authorization by a third party: oidc-provider issues the tokens, both eras'(page) {
    await authorizedTokyo(page, 'legacy', 'oidc');
    await page.goto('about:blank');
    await authorizedTokyo(page, 'modern', 'oidc');
    await page.locator(sel.da).screenshot({ path: join(opt.out, 'authorization-oidc.png') });
    await refreshedAsk(page, '/token');
  },
};
