// What a debugger of MCP over HTTP uses: what changed between runs, the timeline, typed
// arguments judged by the input schema, results checked against the output schema, content blocks
// by kind, exports and imports.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import {
  sel, rows, answer, finished, pieces, era, openSettings, rpcMethods, answerIllinois, instant,
  confirmLinkOnce,
} from '../lib/page.mjs';

/** Waits until diagram 1 is done (the tools handed to the model) and `tool` is among them. */
async function toolsListed(page, tool) {
  await page.waitForFunction(() => {
    const state = document.querySelector('g[data-row="d1-8"]')?.dataset.state;
    return state === 'done' || document.querySelector('g[data-row][data-state="failed"]');
  }, null, { timeout: 40_000 });
  const states = await rows(page);
  for (const row of ['d1-4', 'd1-5', 'd1-6', 'd1-7', 'd1-8']) {
    check(states[row] === 'done', `${row} is ${states[row]} (${await page.textContent(sel.error).catch(() => '')})`);
  }
  await page.click('g[data-row="d1-6"]');
  const tools = await page.textContent('.mf-inspector');
  check(tools.includes(tool), `d1-6 does not list ${tool}: ${tools.slice(0, 500)}`);
}

export default {
  async "a failed first request is diagnosed at its row: a server that refuses the page, nothing listening, a web page's address"(page) {
    const diagnosis = async (server, era) => {
      await page.goto(`${need('base')}/?server=${encodeURIComponent(server)}&era=${era}&speed=instant&approve=auto&autoplay`);
      await page.waitForSelector('#mf-diagnosis', { timeout: 40_000 }).catch(async () => {
        throw new Error(`no diagnosis for ${server}: ${JSON.stringify(await rows(page))}`);
      });
      return page.$eval('#mf-diagnosis', (d) => ({
        finding: d.querySelector('.mf-diagnosis-finding').textContent,
        command: d.querySelector('#mf-diagnosis-command')?.textContent ?? null,
        checks: [...d.querySelectorAll('.mf-checks li')].map((li) => li.dataset.verdict),
      }));
    };
    // Up, but it allows only its own origin: the page cannot read it; the bridge is offered.
    const foreign = need('foreign');
    let d = await diagnosis(foreign, 'legacy');
    check(/does not let this page/.test(d.finding), `foreign: ${d.finding}`);
    check(d.command === `cargo run -p mcp-flow-bridge -- http --allow-origin ${need('base')} ${foreign}`, `the command: ${d.command}`);
    check(JSON.stringify(d.checks) === JSON.stringify(['passed', 'failed', 'passed', 'not-run']), `foreign checks: ${d.checks}`);
    check((await rows(page))['d1-1'] === 'failed', 'the diagnosis is at the failed row d1-1');
    // Nothing listens (a port just closed).
    const closed = await new Promise((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(`http://127.0.0.1:${port}/mcp`)); });
    });
    d = await diagnosis(closed, 'auto');
    check(/Nothing answers at http:\/\/127\.0\.0\.1:/.test(d.finding), `closed: ${d.finding}`);
    check(JSON.stringify(d.checks) === JSON.stringify(['passed', 'failed', 'failed', 'not-run']), `closed checks: ${d.checks}`);
    // The weather server's own page (HTML) instead of its endpoint: /mcp is offered.
    d = await diagnosis(`${need('base')}/`, 'legacy');
    check(d.finding.includes(`${need('base')}/mcp does`), `root: ${d.finding}`);
    check(JSON.stringify(d.checks) === JSON.stringify(['passed', 'failed', 'passed', 'passed']), `root checks: ${d.checks}`);
    await page.locator('#mf-diagnosis').screenshot({ path: join(opt.out, 'diagnosis.png') });
    // A path that is not there (404) names the endpoint too (in Chinese).
    await page.goto(`${need('base')}/?lang=zh&server=${encodeURIComponent(`${need('base')}/nope`)}&era=legacy&speed=instant&approve=auto&autoplay`);
    await page.waitForSelector('#mf-diagnosis', { timeout: 40_000 });
    const missing = await page.textContent('#mf-diagnosis .mf-diagnosis-finding');
    check(missing.includes(`${need('base')}/mcp 是`), `404 path: ${missing}`);
    d = await diagnosis(`${need('base')}/`, 'legacy');
    // The message log and the JSON export carry the checks, so a failure can be sent with them.
    await page.click('#mf-message-log > summary');
    await page.waitForSelector('#mf-log-rows tr[data-source="check"]', { timeout: 20_000 });
    const logged = await page.$$eval('#mf-log-rows tr[data-source="check"]', (trs) => trs.map((tr) => [
      tr.dataset.outcome, tr.querySelector('.mf-log-outcome').textContent]));
    check(JSON.stringify(logged.map(([o]) => o)) === JSON.stringify(['ok', 'error', 'ok', 'ok']), `logged checks: ${JSON.stringify(logged)}`);
    check(logged[3][1].includes(`${need('base')}/mcp: HTTP 200`), `the endpoint check's line: ${logged[3][1]}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#mf-export-json')]);
    const rec = JSON.parse(readFileSync(await download.path(), 'utf8'));
    check(rec.run.diagnosis?.finding?.Elsewhere?.url === `${need('base')}/mcp`, `the export's diagnosis: ${JSON.stringify(rec.run.diagnosis)}`);
    check(rec.run.diagnosis.checks.length === 4, 'the export carries the four checks');
  },

  async "addresses that never settle get a verdict: a redirect to itself, a server that keeps the probe waiting"(page) {
    const verdict = async (server) => {
      await page.goto(`${need('base')}/?server=${encodeURIComponent(server)}&era=legacy&speed=instant&approve=auto&autoplay`);
      await page.waitForSelector('#mf-diagnosis', { timeout: 60_000 });
      return page.$eval('#mf-diagnosis', (d) => ({
        finding: d.querySelector('.mf-diagnosis-finding').textContent,
        checks: [...d.querySelectorAll('.mf-checks li')].map((li) => li.dataset.verdict),
      }));
    };
    const loop = await verdict(`${need('faulty')}/bad/redirect/mcp`);
    check(loop.finding.includes('answers with a redirect'), `redirect loop: ${loop.finding}`);
    check(JSON.stringify(loop.checks) === JSON.stringify(['passed', 'failed', 'passed', 'failed']), `redirect checks: ${loop.checks}`);
    // Its answer would come after 30 s; the probe gives up after 5 and tries nothing else.
    const slow = await verdict(`${need('faulty')}/bad/slow/mcp`);
    check(slow.finding.includes('Nothing answered the probe within 5 s'), `slow: ${slow.finding}`);
    check(JSON.stringify(slow.checks) === JSON.stringify(['passed', 'failed', 'not-run', 'not-run']), `slow checks: ${slow.checks}`);
  },

  async "an HTTP+SSE server (2024-11-05) nobody here wrote: diagnosed without CORS, reached through the bridge, its tools listed"(page) {
    const [direct, bridged] = need('sse-example').split(' ');
    // Directly: the TypeScript SDK's simpleSseServer sends no CORS headers (said in Chinese).
    await page.goto(`${need('base')}/?lang=zh&server=${encodeURIComponent(direct)}&era=auto&speed=instant&approve=auto&autoplay`);
    await page.waitForSelector('#mf-diagnosis', { timeout: 40_000 });
    const finding = await page.textContent('#mf-diagnosis .mf-diagnosis-finding');
    check(finding.includes('服务器在运行，但不允许本页面'), `direct: ${finding}`);
    const command = await page.textContent('#mf-diagnosis-command');
    check(command === `cargo run -p mcp-flow-bridge -- http --allow-origin ${need('base')} ${direct}`, `the command: ${command}`);
    // Through the bridge: the POST of initialize is refused (404), the page GETs the stream, and
    // every message goes to the endpoint it names, its answer back on the stream.
    const sent = [];
    page.on('request', (r) => sent.push(`${r.method()} ${r.url()}`));
    await page.goto(`${need('base')}/?server=${encodeURIComponent(bridged)}&era=auto&speed=instant&approve=auto&autoplay`);
    await page.waitForFunction(() => {
      const state = document.querySelector('g[data-row="d1-8"]')?.dataset.state;
      return state === 'done' || document.querySelector('g[data-row][data-state="failed"]');
    }, null, { timeout: 40_000 });
    const states = await rows(page);
    for (const row of ['d1-1', 'd1-2', 'd1-3', 'd1-4', 'd1-5', 'd1-6', 'd1-7', 'd1-8']) {
      check(states[row] === 'done', `through the bridge: ${row} is ${states[row]} (${await page.textContent(sel.error).catch(() => '')})`);
    }
    check(sent.some((s) => s === `GET ${bridged}`), `no GET of the stream: ${sent.join(', ')}`);
    check(sent.some((s) => s.startsWith(`POST ${bridged}?endpoint=`)), `no POST to the endpoint: ${sent.join(', ')}`);
    await page.click('g[data-row="d1-1"]');
    const initialize = await page.textContent('.mf-inspector');
    check(initialize.includes('HTTP+SSE (2024-11-05)') && initialize.includes('endpoint'), `d1-1: ${initialize.slice(0, 600)}`);
    await page.click('g[data-row="d1-2"]');
    const handshake = await page.textContent('.mf-inspector');
    check(handshake.includes('simple-sse-server') && handshake.includes('HTTP+SSE'), `d1-2: ${handshake.slice(0, 600)}`);
    await page.click('g[data-row="d1-6"]');
    const tools = await page.textContent('.mf-inspector');
    check(tools.includes('start-notification-stream'), `d1-6 does not show the example's tool: ${tools.slice(0, 600)}`);
    await page.screenshot({ path: join(opt.out, 'http-sse-through-the-bridge.png') });
  },

  async "the TypeScript SDK's Streamable HTTP example without CORS: the bridge command, then its tools through that bridge"(page) {
    const [direct, bridged] = need('ts-streamable').split(' ');
    await page.goto(`${need('base')}/?server=${encodeURIComponent(direct)}&era=auto&speed=instant&approve=auto&autoplay`);
    await page.waitForSelector('#mf-diagnosis', { timeout: 40_000 });
    const finding = await page.textContent('#mf-diagnosis .mf-diagnosis-finding');
    check(/does not let this page/.test(finding), `direct: ${finding}`);
    const command = await page.textContent('#mf-diagnosis-command');
    check(command === `cargo run -p mcp-flow-bridge -- http --allow-origin ${need('base')} ${direct}`, `the command: ${command}`);
    await page.goto(`${need('base')}/?server=${encodeURIComponent(bridged)}&era=auto&speed=instant&approve=auto&autoplay`);
    await toolsListed(page, 'greet');
  },

  async "the TypeScript SDK's example behind its demo OAuth server, through the bridge: authorized for the upstream, tools listed"(page) {
    const [upstream, bridged] = need('ts-oauth').split(' ');
    const bridgeSaw = [];
    page.on('request', (r) => { if (r.url().startsWith(bridged)) bridgeSaw.push(r.headers().authorization ?? ''); });
    await page.goto(`${need('base')}/?server=${encodeURIComponent(bridged)}&era=auto&speed=instant&approve=auto`);
    await page.click(sel.play);
    // Its demo authorization server sends the popup straight back with a code.
    await page.waitForSelector(sel.authOpen, { timeout: 30_000 });
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.click(sel.authOpen)]);
    await popup.waitForEvent('close', { timeout: 30_000 });
    await toolsListed(page, 'greet');
    const states = await rows(page);
    // A first client at this authorization server registers (a-6, a-7).
    for (const row of ['a-1', 'a-2', 'a-3', 'a-4', 'a-5', 'a-6', 'a-7', 'a-8', 'a-9', 'a-10', 'a-11', 'a-12', 'a-13']) {
      check(states[row] === 'done', `${row} is ${states[row]}`);
    }
    // The protected resource is the upstream (its metadata says so), and the token went to the
    // bridge only, which relays it there.
    await page.click('g[data-row="a-3"]');
    const shown = await page.textContent('.mf-inspector');
    check(shown.includes(upstream), `a-3 does not name the upstream ${upstream}: ${shown.slice(0, 500)}`);
    check(bridgeSaw.some((a) => a.startsWith('Bearer ')), 'no request to the bridge carried the token');
  },

  async 'What changed: runs against servers with different tools, each change named'(page) {
    await page.goto(`${need('base')}/?speed=instant&approve=auto&era=legacy`);
    const connect = async (server) => {
      if (server) {
        await openSettings(page);
        await page.fill(sel.server, server);
        await page.press(sel.server, 'Enter');
        await page.dispatchEvent(sel.server, 'change');
      }
      await page.click(sel.connect);
      await page.waitForFunction(() => document.querySelector('g[data-row="d1-8"]')?.dataset.state === 'done',
        null, { timeout: 20_000 });
    };
    await connect(null);
    // The weather run saved as a recording, to compare with later without loading it.
    const [saved] = await Promise.all([page.waitForEvent('download'), page.click(sel.exportJson)]);
    const weatherRecording = join(opt.out, 'weather-recording.json');
    await saved.saveAs(weatherRecording);
    await page.click('#mf-connection > summary');
    await page.waitForSelector('#mf-connection .mf-hint');
    check((await page.textContent(sel.connection)).includes('No earlier run'), 'a diff with no earlier run');
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
    await page.setInputFiles(sel.diffFile, weatherRecording);
    await page.waitForSelector(sel.diffAgainst);
    const fromFile = await changes();
    check(JSON.stringify(fromFile) === JSON.stringify(calc), `from the file: ${JSON.stringify(fromFile)}`);
    check((await page.textContent(sel.diffAgainst)).includes('weather-recording.json'), 'the file compared is not named');
    check((await rows(page))['d1-8'] === 'done' && (await page.textContent('g[data-row="d1-6"]')).includes('add'),
      'the recording was loaded in place of the run');
    // A server whose get_weather differs from the weather server's, compared with run 1.
    await connect(`${need('faulty')}/fault/output-mismatch/mcp`);
    await page.selectOption(sel.diffFrom, '1');
    await page.waitForFunction(() => document.querySelector('#mf-diff li[data-change="changed"]'), null, { timeout: 5_000 });
    const faulty = await changes();
    check(faulty.some(([h, t]) => h === 'changed' && t.startsWith('~ tool get_weather: ')),
      `faulty vs weather: ${JSON.stringify(faulty)}`);
    await page.locator(sel.connection).screenshot({ path: join(opt.out, 'what-changed.png') });
  },

  async 'Timeline: the Tokyo run on a time axis from ?view=timeline, both eras, by keyboard'(page) {
    const methods = rpcMethods(page);
    for (const spoken of ['legacy', 'modern']) {
      methods.length = 0;
      await page.goto(`${need('base')}/?speed=instant&approve=auto&autoplay&era=${spoken}&view=timeline`);
      await finished(page);
      await page.waitForSelector('#mf-timeline[open] g[data-span]');
      // get_weather's card talks with the host after the answer (the App lane): the whole run is
      // what the timeline holds once the card has its result and has settled.
      await page.waitForSelector('g[data-row="app-8"][data-state="done"]', { timeout: 20_000 });
      await page.waitForTimeout(500);
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
      await page.click(sel.timelineFit);
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
      await page.locator(sel.timeline).screenshot({ path: join(opt.out, `timeline-${spoken}.png`) });
    }
    // A listen stream (2026-07-28): one span in the streams' lane, its events (the acknowledgment,
    // the update) as ticks on it.
    await page.click('#mf-connection > summary');
    await page.click(sel.browse);
    await page.waitForFunction(() => document.querySelector('g[data-row="r-28"]')?.dataset.state === 'done',
      null, { timeout: 30_000 });
    const listen = '#mf-timeline g[data-span="subscriptions/listen"][data-lane="Streams"]';
    await page.waitForSelector(listen);
    const ticks = await page.$$eval(`${listen} .mf-tick`, (ls) => ls.length);
    check(ticks >= 2, `the listen stream shows ${ticks} events`);
    check((await page.getAttribute(listen, 'data-row')) === 'r-16', 'the listen span is not on r-16');
    await page.locator(sel.timeline).screenshot({ path: join(opt.out, 'timeline-listen.png') });
    // The server's question: in 2026-07-28 the tools/call's two rounds under one bracket; in
    // 2025-11-25 the answer is a POST of its own while the call's stream stays open.
    const q = encodeURIComponent("What's the weather in Springfield?");
    for (const spoken of ['modern', 'legacy']) {
      await page.goto(`${need('base')}/?era=${spoken}&q=${q}&speed=instant&approve=auto&autoplay&view=timeline`);
      await page.waitForSelector(sel.formTitle, { timeout: 20_000 });
      await answerIllinois(page, spoken);
      await finished(page);
      await page.waitForSelector('#mf-timeline g[data-span="tools/call"]');
      const calls = await page.$$eval('#mf-timeline g[data-span="tools/call"]', (gs) => gs.map((g) => g.getAttribute('aria-label')));
      const groups = await page.$$eval('#mf-timeline g[data-group="mrtr"]', (gs) => gs.map((g) => g.dataset.rounds));
      if (spoken === 'modern') {
        check(calls.length === 2 && calls[0].includes('round 1') && calls[1].includes('round 2'), `modern: ${calls}`);
        check(JSON.stringify(groups) === '["2"]', `modern: rounds ${groups}`);
        await page.locator(sel.timeline).screenshot({ path: join(opt.out, 'timeline-springfield.png') });
      } else {
        check(calls.length === 1 && groups.length === 0, `legacy: calls ${calls}, rounds ${groups}`);
        const answerPost = await page.$('#mf-timeline g[data-span="POST /mcp"][data-lane="Requests"]');
        check(answerPost, 'legacy: the answer to elicitation/create is not a span');
      }
    }
  },

  async 'typed JSON arguments are judged by the whole inputSchema, and can be sent anyway'(page) {
    const fetched = pieces(page);
    const start = async () => {
      fetched.length = 0;
      await page.goto(`${need('base')}/?llm=you&${instant}`);
      await page.waitForSelector(sel.youJsonToggle, { timeout: 20_000 });
      check(fetched.some((n) => n.startsWith('split_ui_you')), `the dialog's view was not fetched: ${fetched}`);
      await page.check('#mf-you-json-toggle');
      await page.fill(sel.youJson, '{"location": "Tokyo", "units": "kelvin"}');
      await page.click(sel.youCall);
      // Checked in the schema worker (the units are an enum): held back, with the reason.
      await page.waitForSelector(sel.youCallAnyway, { state: 'visible', timeout: 20_000 });
      const problem = await page.textContent(sel.youProblem);
      check(problem.includes("inputSchema") && problem.includes('/units') && problem.includes('kelvin'),
        `the check's verdict: ${problem}`);
      check((await rows(page))['d2-7'] !== 'done', 'tools/call went out before the check');
    };
    // Fixed, it goes straight through (and the override is gone with the edit).
    await start();
    await page.fill(sel.youJson, '{"location": "Tokyo", "units": "fahrenheit"}');
    check(!(await page.isVisible(sel.youCallAnyway)), 'the override outlived the edit');
    await page.click(sel.youCall);
    await page.waitForSelector(sel.youResult, { timeout: 20_000 });
    await page.click('g[data-row="d2-8"]');
    const result = await page.textContent('.mf-inspector');
    check(result.includes('fahrenheit'), `the result is not in the units sent: ${result.slice(0, 300)}`);
    // Sent anyway: the server's own answer to kelvin comes back, on the call's rows.
    await start();
    await page.click(sel.youCallAnyway);
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
    await page.click(sel.ask);
    await page.waitForSelector('g[data-row="d2-4"][data-state="skipped"]', { timeout: 20_000 });
    await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('g[data-row="d2-8"]')?.dataset.state),
      null, { timeout: 20_000 });
    // A run does not fetch the checker before it is needed: none while the run waits for
    // the user's yes (d2-4), before any result; one once the result is in.
    await page.goto(`${need('base')}/?speed=instant&era=legacy`);
    await page.click(sel.play);
    await page.waitForSelector(sel.yes, { timeout: 20_000 });
    workers = await page.evaluate(() => window.__workers);
    check(workers.length === 0, `a worker started before any result: ${workers}`);
    await page.click(sel.yes);
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

  async 'export JSON, HAR and Mermaid, then import the recording'(page) {
    // The HAR and Mermaid writers and the recording's reader are split out of the first load
    // (xtask/src/build/split.rs): fetched on first use, not before.
    const fetched = pieces(page);
    await page.goto(`${need('base')}/?${instant}`);
    await finished(page);
    // A run with the offline model fetches no module of the authorization, the fourth diagram,
    // the other models, the exports, the in-page model, the server's questions or the views it
    // does not show (comparison, forms, the You dialog, the
    // closed panels).
    const early = fetched.filter((n) => /^split_(authorize|browse|diagnose|models|export|import|smollm|server_questions|ui_)/.test(n));
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
    check((await page.textContent(sel.logRows)).includes('tools/call'), 'the opened log lacks tools/call');
    check((await page.textContent(sel.connectionFacts)).includes('weather-server'), 'the opened panel lacks the server');

    // A fresh page loads the recording: labelled, same rows and answer, nothing sent.
    const fresh = await page.context().newPage();
    const sent = [];
    fresh.on('request', (r) => { if (r.method() === 'POST') sent.push(r.url()); });
    const freshFetched = pieces(fresh);
    await fresh.goto(`${need('base')}/`);
    await fresh.setInputFiles(sel.import, json.path);
    await fresh.waitForSelector(sel.recording);
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
};
