// The server's questions from servers nobody here wrote, in the page: the TypeScript SDK 1.32.2's
// elicitationUrlExample (2025-11-25, behind its own demo authorization server, which the page
// finds at the well-known address: its 401 does not expose WWW-Authenticate to a page) answers its
// tool with error -32042 until the user has been through its payment page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import { sel, rows } from '../lib/page.mjs';

/** The server's page, opened by the user's click in a new tab; it must get no opener. */
async function opened(page, click) {
  const [tab] = await Promise.all([page.context().waitForEvent('page'), page.click(click)]);
  await tab.waitForLoadState();
  check(await tab.evaluate(() => window.opener === null), "the server's page sees window.opener");
  return tab;
}

/** The page's dialog for a URL elicitation: the server's page, named by its origin. */
async function asked(page, origin, path) {
  await page.waitForSelector('#mf-form-url', { timeout: 20_000 });
  const shown = await page.textContent('#mf-form-origin');
  check(shown === origin, `the origin shown: ${shown}`);
  const url = await page.textContent('#mf-form-url-text');
  check(url.startsWith(`${origin}${path}?`), `the page shown: ${url}`);
  return page.textContent('#mf-form-url .mf-form-message');
}

export default {
  async "the TypeScript SDK's URL elicitation example: error -32042, its page opened, the call sent again"(page) {
    const server = need('url-elicitation');
    const origin = new URL(server).origin;
    await page.goto(`${need('base')}/?server=${encodeURIComponent(server)}&llm=you&speed=instant&era=legacy`);
    await page.click(sel.play);
    // Its demo authorization server sends the popup straight back with a code.
    await page.waitForSelector(sel.authOpen, { timeout: 20_000 });
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.click(sel.authOpen)]);
    await popup.waitForEvent('close', { timeout: 30_000 });

    // Its GET stream opens once the session is ready (d1-ready). The example also asks for an API
    // key there, but only once its GET handler returns, which is when that stream has closed: the
    // request is kept for a client that reconnects with Last-Event-ID (the page does not), so no
    // dialog comes from it.
    // The user in the model's place calls payment-confirm; the server wants its page first.
    await page.waitForSelector('#mf-you-tool', { timeout: 20_000 });
    await page.selectOption('#mf-you-tool', 'payment-confirm');
    await page.fill('#mf-you-cartId', 'cart-42');
    await page.click(sel.youCall);
    const approve = await Promise.race([
      page.waitForSelector(sel.yes, { timeout: 20_000 }).then(() => true),
      page.waitForSelector('#mf-form-url', { timeout: 20_000 }).then(() => false),
    ]);
    if (approve) await page.click(sel.yes);
    const payAsked = await asked(page, origin, '/confirm-payment');
    check(payAsked.includes('error -32042'), `the row says why: ${payAsked}`);
    await page.screenshot({ path: join(opt.out, 'url-elicitation-required.png') });
    const payTab = await opened(page, '#mf-form-open');
    // The page waits for the server to say the page is done, or for the user.
    await page.waitForSelector('#mf-form-wait', { timeout: 10_000 });
    await payTab.click('button[value=confirm]');
    await payTab.waitForSelector('text=/confirmed/i', { timeout: 10_000 });
    await payTab.close();
    // The server's notifications/elicitation/complete would end the wait; without it (see above)
    // the user's own control sends the call again.
    const heard = await page.waitForSelector('#mf-form-wait', { state: 'detached', timeout: 5_000 })
      .then(() => true, () => false);
    if (!heard) await page.click('#mf-form-retry');
    console.log(`     the wait ended by ${heard ? "the server's completion" : 'the user (Call again now)'}`);
    // This example asks again every time. Declined, the call ends at the retry's row.
    await page.waitForSelector('#mf-form-url', { timeout: 20_000 });
    await page.click('#mf-form-decline');
    await page.waitForSelector('g[data-row="d2-elicit-reply"][data-state="failed"]', { timeout: 20_000 });
    const error = await page.textContent(sel.error);
    check(error.includes('you answered decline') && error.includes('-32042'), `the row's error: ${error}`);
    const states = await rows(page);
    for (const row of ['d1-1', 'd2-7', 'd2-elicit', 'd2-elicit-ask', 'd2-elicit-answer']) {
      check(states[row] === 'done', `${row} is ${states[row]}`);
    }
    // The record: two tools/call with the same params, both answered -32042, and the GET stream.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(sel.exportJson)]);
    const path = join(opt.out, 'url-elicitation.json');
    await download.saveAs(path);
    const run = JSON.parse(readFileSync(path, 'utf8')).run;
    const exchanges = run.mcp.exchanges;
    const calls = exchanges.filter((x) => x.rpc_method === 'tools/call');
    check(calls.length === 2, `tools/call sent ${calls.length} times`);
    const params = calls.map((x) => JSON.stringify(JSON.parse(x.request_body).params));
    check(params[0] === params[1], `the call went again changed: ${params}`);
    const get = exchanges.find((x) => x.method === 'GET');
    check(get?.status === 200, `the session's GET stream: ${get?.status}`);
    check(states['d1-ready'] === 'done', `d1-ready is ${states['d1-ready']}`);
  },
};
