// Watching a real host through the bridge (`--watch`): hosts nobody here wrote talk to servers
// through the bridge while the page, opened on the bridge's feed, draws each session from the
// messages that passed. The TypeScript SDK's example client (2025-11-25, over HTTP), the Python
// SDK's client (2026-07-28, over HTTP), and the Python SDK's client as a stdio host running the
// bridge's tap in place of its server's command.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { opt, need, check } from '../lib/context.mjs';
import { rows, sel } from '../lib/page.mjs';

const WAIT = 20_000;

/** The watch bridges and the hosts' programs (xtask's `watch` helper). */
function watched() {
  const [http, stdio, bridge, python, tsClient, stdioServer] = need('watch').split(' ');
  const feed = (endpoint) => endpoint.replace(/\/mcp$/, '/watch');
  return { http, stdio, bridge, python, tsClient, stdioServer, feed };
}

/** A host program: its output so far, lines written to its stdin, and waits on both. */
function host(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  // Where the output read so far ends: `until` looks only past it.
  let mark = 0;
  const until = async (text, what) => {
    const end = Date.now() + WAIT;
    let at;
    while ((at = out.indexOf(text, mark)) < 0) {
      if (Date.now() > end) throw new Error(`the host never said ${JSON.stringify(text)} (${what}): ${out.slice(-600)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    mark = at + text.length;
  };
  return {
    output: () => out,
    say: (line) => child.stdin.write(`${line}\n`),
    until,
    /** At its next prompt, `line`; then waits for `expect`. An interactive client reads one line
     * per prompt: a line sent before the prompt is lost. */
    async command(line, expect, what) {
      await until('> ', `its prompt before ${line}`);
      child.stdin.write(`${line}\n`);
      await until(expect, what);
    },
    async exit() {
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), WAIT))]);
      if (code === 'timeout') child.kill('SIGKILL');
      return code;
    },
  };
}

/** Waits until the session picked shows `row` in `state`. */
async function rowIs(page, row, state) {
  await page.waitForFunction(([r, s]) => document.querySelector(`g[data-row="${r}"]`)?.dataset.state === s,
    [row, state], { timeout: WAIT }).catch(async () => {
    throw new Error(`${row} is ${(await rows(page))[row]}, not ${state}; the panel says: ${await page.textContent('#mf-watch').catch(() => '')}`);
  });
}

async function openOn(page, endpoint, feed) {
  await page.goto(`${need('base')}/?watch=${encodeURIComponent(feed(endpoint))}`);
  // Read once: the status names where to point the host.
  await page.waitForFunction((e) => (document.querySelector('#mf-watch-status')?.textContent ?? '').includes(e),
    endpoint, { timeout: WAIT }).catch(async () => {
    throw new Error(`the status does not name ${endpoint}: ${await page.textContent('#mf-watch').catch(() => '')}`);
  });
}

/** The rows a host's session lights from the wire, and those it keeps skipped as its own. */
async function drawn(page, wire) {
  for (const row of wire) await rowIs(page, row, 'done');
  const states = await rows(page);
  for (const row of ['d1-8', 'd2-1', 'd2-3', 'd2-11', 'd2-12']) {
    check(states[row] === 'skipped', `${row} (inside the host) is ${states[row]}`);
  }
  check(!(await page.textContent('#mf-answer')).trim(), 'an answer shown that no host said on the wire');
}

export default {
  async "watch a real host: the TypeScript SDK's example client through the bridge, drawn live in 2025-11-25"(page) {
    const w = watched();
    await openOn(page, w.http, w.feed);
    const noTty = fileURLToPath(new URL('../no-tty.mjs', import.meta.url));
    const client = host('node', ['--import', noTty, w.tsClient]);
    try {
      // It first tries its default server; then it is pointed at the bridge.
      await client.until('Available commands', 'its help');
      await client.command('disconnect', 'onnected', 'disconnected');
      await client.command(`connect ${w.http}`, 'Connected to MCP server', 'connected through the bridge');
      const button = await page.waitForSelector('.mf-watch-session', { timeout: WAIT });
      check((await button.textContent()).includes('2025-11-25'), `the session's era: ${await button.textContent()}`);
      await rowIs(page, 'd1-2', 'done');
      await client.command('list-tools', 'get_weather', 'its list of tools');
      await client.command('call-tool get_weather {"location":"Tokyo"}', 'Sunny', "get_weather's result");
      await drawn(page, ['d1-1', 'd1-2', 'd1-3', 'd1-5', 'd1-6', 'd2-7', 'd2-exec', 'd2-8']);
      check((await page.textContent('.mf-watch-session')).includes('example-client 1.0.0'),
        `the session names the host: ${await page.textContent('.mf-watch-session')}`);
      check(/Step mode does not apply/.test(await page.textContent('#mf-watch')), 'the panel does not say Step mode does not apply');
      // From the top: the panel, its session, diagram 1 (docs/watch.png).
      await page.click('g[data-row="d1-6"]');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(opt.out, 'watch-ts-client.png') });
      // The call's exchange in the inspector, as the host sent it; its arrow carries its values.
      await page.click('g[data-row="d2-7"]');
      const inspector = await page.textContent('.mf-inspector');
      check(inspector.includes('tools/call') && inspector.includes('Tokyo'), `the inspector: ${inspector.slice(0, 400)}`);
      const arrow = await page.textContent('g[data-row="d2-7"]');
      check(arrow.includes('get_weather'), `the arrow's label: ${arrow}`);
      client.say('quit');
      check((await client.exit()) === 0, `the client's exit: ${client.output().slice(-300)}`);
      // Its DELETE ends the session on the list.
      await page.waitForFunction(() => /ended/.test(document.querySelector('.mf-watch-session')?.textContent ?? ''),
        null, { timeout: WAIT });
    } finally {
      client.say('quit');
      await client.exit();
    }
  },

  async "watch a real host: the Python SDK's client calling get_weather through the bridge, in 2026-07-28, beside another host's session"(page) {
    const w = watched();
    await openOn(page, w.http, w.feed);
    const client = host(w.python, [fileURLToPath(new URL('../watch_client.py', import.meta.url)), w.http]);
    const code = await client.exit();
    check(code === 0 && client.output().includes('result: Sunny'), `the Python client: ${code} ${client.output().slice(-400)}`);
    // The feed kept the earlier scenario's host too: each session on the list, the newest picked by click.
    await page.waitForFunction(() => document.querySelectorAll('.mf-watch-session').length >= 1, null, { timeout: WAIT });
    const modern = page.locator('.mf-watch-session', { hasText: '2026-07-28' }).first();
    await modern.click();
    check((await modern.textContent()).startsWith('mcp 0.1.0'), `the Python SDK names itself: ${await modern.textContent()}`);
    await drawn(page, ['d1-discover', 'd1-discover-result', 'd1-5', 'd1-6', 'd2-7', 'd2-exec', 'd2-8']);
    check(!(await page.$('g[data-row="d1-1"]')), 'an initialize row drawn for a 2026-07-28 host');
    await page.click('g[data-row="d2-7"]');
    const inspector = await page.textContent('.mf-inspector');
    check(inspector.includes('Mcp-Method: tools/call'), `the modern headers as the host sent them: ${inspector.slice(0, 400)}`);
    await page.screenshot({ path: join(opt.out, 'watch-python-client.png') });
    // The message log and the JSON export carry the watched session's exchanges.
    await page.click('#mf-message-log > summary');
    await page.waitForSelector('#mf-message-log #mf-log-rows tr', { timeout: WAIT });
    const log = await page.textContent(sel.logRows);
    check(log.includes('server/discover') && log.includes('tools/call'), `the message log: ${log.slice(0, 400)}`);
    const [saved] = await Promise.all([page.waitForEvent('download'), page.click(sel.exportJson)]);
    const exported = JSON.parse(readFileSync(await saved.path(), 'utf8'));
    const methods = exported.run.mcp.exchanges.map((x) => x.rpc_method);
    check(methods.includes('server/discover') && methods.includes('tools/call'), `the export: ${methods.join(', ')}`);
    // The timeline draws the session's requests on their rows.
    await page.click('#mf-timeline > summary');
    await page.waitForSelector('#mf-timeline[open] g[data-span="tools/call"]', { timeout: WAIT });
  },

  async 'watch a real host over stdio: the Python SDK client runs the bridge tap in place of its server'(page) {
    const w = watched();
    await openOn(page, w.stdio, w.feed);
    const tap = [w.bridge, 'tap', '--feed', w.stdio.replace(/\/mcp$/, '/tap'), '--', w.python, w.stdioServer];
    const client = host(w.python, [fileURLToPath(new URL('../watch_client.py', import.meta.url)), '--', ...tap]);
    const code = await client.exit();
    check(code === 0 && client.output().includes('result: Sunny'), `the stdio host: ${code} ${client.output().slice(-400)}`);
    const button = await page.waitForSelector('.mf-watch-session', { timeout: WAIT });
    await drawn(page, ['d1-discover', 'd1-discover-result', 'd1-5', 'd1-6', 'd2-7', 'd2-exec', 'd2-8']);
    await page.waitForFunction(() => /ended/.test(document.querySelector('.mf-watch-session')?.textContent ?? ''),
      null, { timeout: WAIT });
    check((await button.textContent()).startsWith('mcp'), `the stdio host's session: ${await button.textContent()}`);
    await page.click('g[data-row="d2-8"]');
    const inspector = await page.textContent('.mf-inspector');
    check(inspector.includes('Sunny'), `the answer line joins its request: ${inspector.slice(0, 400)}`);
    await page.screenshot({ path: join(opt.out, 'watch-stdio-host.png') });
  },

  async 'a host that floods the bridge while the page watches: every message relayed, every one counted, the page responsive'(page) {
    const w = watched();
    await openOn(page, w.http, w.feed);
    const post = (body, session) => fetch(w.http, {
      method: 'POST',
      headers: {
        'content-type': 'application/json', accept: 'application/json, text/event-stream',
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
      },
      body: JSON.stringify(body),
    });
    const opened = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {
      protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } });
    const session = opened.headers.get('mcp-session-id');
    await opened.text();
    check(session, 'no session from initialize');
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    // 3,000 pings, 8 at a time (the weather server allows a session 16 open streams), as fast
    // as the relay answers them.
    const PINGS = 3000;
    let next = 1;
    let answered = 0;
    const started = Date.now();
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next <= PINGS) {
        const id = next++;
        const r = await post({ jsonrpc: '2.0', id, method: 'ping' }, session);
        if ((await r.text()).includes(`"id":${id}`)) answered++;
      }
    }));
    const seconds = (Date.now() - started) / 1000;
    check(answered === PINGS, `the relay answered ${answered} of ${PINGS} pings`);
    console.log(`     flood: ${PINGS} pings through the watching bridge in ${seconds.toFixed(1)} s (${Math.round(PINGS / seconds)}/s)`);
    // Every message counted on the session (the pings, their answers, and the handshake's three).
    const flood = page.locator('.mf-watch-session', { hasText: 'flood 1' });
    await page.waitForFunction(
      (n) => [...document.querySelectorAll('.mf-watch-session')].some((b) => b.textContent.includes('flood 1') && b.textContent.includes(` ${n} messages`)),
      2 * PINGS + 3, { timeout: 60_000 }).catch(async () => {
      throw new Error(`the flood's session: ${await flood.textContent().catch(() => 'not listed')}`);
    });
    check(!(await page.$('.mf-watch-missed')), 'the feed let messages go that the page needed');
    // Still responsive: the session drawn, a row's details on a click.
    await flood.click();
    await rowIs(page, 'd1-2', 'done');
    await page.click('g[data-row="d1-1"]');
    await page.waitForFunction(() => document.querySelector('.mf-inspector')?.textContent.includes('flood'), null, { timeout: WAIT });
  },

  async 'a watch link to anything but a bridge feed on this machine is refused, and nothing is read'(page) {
    const asked = [];
    page.on('request', (r) => { if (r.url().startsWith('http://example.com')) asked.push(r.url()); });
    await page.goto(`${need('base')}/?watch=${encodeURIComponent('http://example.com/s/x/watch')}`);
    await page.waitForSelector('#mf-watch-status');
    const said = await page.textContent('#mf-watch-status');
    check(/not a bridge's watch feed on this machine/.test(said), `the status: ${said}`);
    check(asked.length === 0, `the page fetched ${asked.join(', ')}`);
  },
};
