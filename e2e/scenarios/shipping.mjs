// What ships: the first run on the wire, the Content-Security-Policy, and modules fetched on
// demand that cannot be.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import { sel, answer, finished, pieces, era, instant } from '../lib/page.mjs';

export default {
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
    await page.click(sel.play);
    await page.waitForSelector(sel.yes, { timeout: 20_000 });
    await page.click(sel.yes);
    await finished(page);
    await page.waitForLoadState('networkidle');
    const files = await Promise.all(reads);
    const compressible = files.filter((f) => /\.(wasm|js|mjs|css|html|json|svg)$|\/$/.test(f.path));
    const plain = compressible.filter((f) => f.encoding !== 'br' && f.encoding !== 'gzip');
    check(compressible.length > 0 && plain.length === 0, `sent uncompressed: ${JSON.stringify(plain)}`);
    // A build's files live in a folder named by their contents (xtask/src/build/site.rs) and are kept
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
    // xtask/src/build/chunks.rs), not a timing: at most 13 to the first answer (the run's module
    // and chunk, and since the default run ends with get_weather's card, the apps' module and
    // chunk).
    check(files.length <= 13, `a first run fetched ${files.length} files: ${files.map((f) => f.path).join(', ')}`);
    // And at most 560 KB on the wire (the bytes, like the files, are the build's, not a timing):
    // the float formatter and parser, which the offline model's arithmetic needs, are the run
    // module's, not the first load's.
    check(total <= 560_000, `a first run fetched ${total} bytes: ${files.map((f) => `${f.path} ${f.wire}`).join(', ')}`);
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

  async 'a module that cannot be fetched fails where it is needed, with a message, and the page lives on'(page) {
    // The page's server is "gone" for the exports' module: the export says so instead of
    // aborting the wasm app (a failed load must not panic), and a later click fetches it again.
    let refused = 0;
    await page.route(/\/split_export[^/]*\.wasm$/, (route) => { refused++; return route.abort('connectionrefused'); });
    await page.goto(`${need('base')}/?${instant}`);
    await finished(page);
    await page.click(sel.exportHar);
    await page.waitForFunction(() => document.querySelector('#mf-share-message')?.textContent.includes('could not be fetched'));
    const message = await page.textContent(sel.shareMessage);
    check(message.startsWith('mcp-flow-run.har: '), `the message does not name the file: ${message}`);
    check(refused >= 1, 'the module was never asked for');
    // The app still answers: the player makes a whole new run.
    const calls = [];
    page.on('request', (r) => { if (r.method() === 'POST' && (r.postData() ?? '').includes('"tools/call"')) calls.push(r.url()); });
    // The new run starts once the last run's app has been torn down: until its tools/call goes
    // out, the page still shows the last run's answer.
    const called = page.waitForRequest((r) => r.method() === 'POST' && (r.postData() ?? '').includes('"tools/call"'),
      { timeout: 20_000 });
    await page.click(sel.restart);
    await called;
    await page.waitForFunction(() => (document.querySelector('#mf-answer')?.textContent.trim().length ?? 0) > 0
      && document.querySelector('g[data-row="d2-8"]')?.dataset.state === 'done');
    check(calls.length === 1, `the run after the failure sent ${calls.length} tools/call requests`);
    check((await answer(page)) === 'The weather in Tokyo is sunny, 22 °C.', `answer after the failure: ${await answer(page)}`);
    // The server is back: the same button fetches the module and saves the file.
    await page.unroute(/\/split_export[^/]*\.wasm$/);
    const [har] = await Promise.all([page.waitForEvent('download'), page.click(sel.exportHar)]);
    check(har.suggestedFilename() === 'mcp-flow-run.har', `after the retry: ${har.suggestedFilename()}`);

    // The run's module (MCP client, host, models, the inspector's row details) is fetched when a
    // run starts, not with the page; if it cannot be fetched, the run fails at its first row
    // with that reason.
    await page.unrouteAll();
    const idle = await page.context().newPage();
    const idleFetched = pieces(idle);
    await idle.route(/\/split_run[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    await idle.goto(`${need('base')}/?speed=instant&approve=auto`);
    await idle.waitForSelector(sel.play);
    check(!idleFetched.some((n) => n.startsWith('split_run')), `the run's module came with the page: ${idleFetched.join(', ')}`);
    await idle.click(sel.play);
    await idle.waitForSelector('g[data-row="d1-prep"][data-state="failed"]', { timeout: 20_000 });
    const engineError = await idle.textContent(sel.error);
    check(engineError.includes('could not be fetched') && engineError.includes('runs the protocol'),
      `the first row says: ${engineError}`);
    // The inspector went to the failed row; its details need the same module, and say so.
    check((await idle.textContent('.mf-inspector')).includes('could not be fetched'),
      `the inspector: ${await idle.textContent('.mf-inspector')}`);
    await idle.unrouteAll();
    await idle.click(sel.restart);
    await idle.waitForFunction(() => document.querySelector('g[data-row="d2-8"]')?.dataset.state === 'done', null, { timeout: 20_000 });
    check((await answer(idle)) === 'The weather in Tokyo is sunny, 22 °C.', `after the engine came: ${await answer(idle)}`);
    await idle.close();

    // In the middle of a run: the reader of the server's questions cannot be fetched. The row of
    // the tool call fails with that reason (not the server's fault), and nothing hangs.
    await page.route(/\/split_server_questions[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    const q = encodeURIComponent("What's the weather in Springfield?");
    await page.goto(`${need('base')}/?era=modern&q=${q}&speed=instant&approve=auto&autoplay`);
    await page.waitForSelector('g[data-row][data-state="failed"]', { timeout: 20_000 });
    const error = await page.textContent(sel.error);
    check(error.includes('could not be fetched') && error.includes('input_required'), `the failed row says: ${error}`);
    check((await page.$(sel.formTitle)) === null, 'a form was shown without its reader');
    // In 2025-11-25 the question comes on the stream: it is declined, and its row says why.
    await page.goto(`${need('base')}/?era=legacy&q=${q}&speed=instant&approve=auto&autoplay`);
    await page.waitForFunction(() => document.querySelector('g[data-row="d2-elicit-reply"]')?.dataset.state === 'done'
      || document.querySelector('g[data-row][data-state="failed"]') !== null, null, { timeout: 20_000 });
    await page.click('g[data-row="d2-elicit"]');
    const declined = await page.textContent('.mf-inspector');
    check(declined.includes('could not be read, so it is declined') && declined.includes('could not be fetched'),
      `legacy: the question's row says ${declined.slice(0, 400)}`);
    check((await page.$(sel.formTitle)) === null, 'legacy: a form was shown without its reader');

    // The fourth diagram's walk cannot be fetched: its first row fails with that reason.
    await page.unrouteAll();
    await page.route(/\/split_browse[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    await page.goto(`${need('base')}/?speed=instant&approve=auto`);
    await page.click('#mf-connection > summary');
    await page.click(sel.browse);
    await page.waitForSelector('g[data-row="r-1"][data-state="failed"]', { timeout: 20_000 });
    const browseError = await page.textContent(sel.error);
    check(browseError.includes('could not be fetched') && browseError.includes('resources, prompts and tasks'),
      `the walk's first row says: ${browseError}`);

    // A protected server asks for authorization and the flow's module cannot be fetched: the
    // request the server refused fails with that reason, and no consent is asked.
    await page.unrouteAll();
    await page.route(/\/split_authorize[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    await page.goto(`${need('auth-base')}/?speed=instant&approve=auto&autoplay`);
    await page.waitForSelector('g[data-row][data-state="failed"]', { timeout: 20_000 });
    const authError = await page.textContent(sel.error);
    check(authError.includes('could not be fetched') && authError.includes('authorizes'), `the refused request's row says: ${authError}`);
    check((await page.$(sel.authOpen)) === null, 'the consent was asked without the flow');

    // A view fetched on demand (the comparison of the eras): said in its place, with Try again.
    await page.unrouteAll();
    await page.route(/\/split_ui_compare[^/]*\.wasm$/, (route) => route.abort('connectionrefused'));
    await page.goto(`${need('base')}/?speed=instant&approve=auto`);
    await page.click(sel.compareButton);
    await page.waitForSelector('.mf-not-loaded', { timeout: 20_000 });
    const said = await page.textContent('.mf-not-loaded');
    check(said.includes('could not be fetched'), `in place of the comparison: ${said}`);
    await page.unrouteAll();
    await page.click('.mf-not-loaded .mf-retry');
    await page.waitForSelector(sel.compareTable, { timeout: 40_000 });
    check((await page.$('.mf-not-loaded')) === null, 'the failure is still shown after the retry');
  },
};
