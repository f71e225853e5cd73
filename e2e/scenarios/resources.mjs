// The fourth diagram: resources, prompts and completion from the connection panel, and tasks
// (2026-07-28 on /forecast, 2025-11-25 against the reference server-everything).
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import { sel, rows, answer, pieces, era, rpcMethods, instant } from '../lib/page.mjs';

export default {
  async 'Resources, prompts and completion: a browse from the connection panel, both eras'(page) {
    const methods = rpcMethods(page);
    const fetched = pieces(page);
    for (const spoken of ['legacy', 'modern']) {
      methods.length = 0;
      await page.goto(`${need('base')}/?speed=instant&approve=auto&era=${spoken}`);
      await page.click('#mf-connection > summary');
      check(!fetched.some((n) => n.startsWith('split_browse')), `${spoken}: the walk's module before the walk: ${fetched}`);
      await page.click(sel.browse);
      await page.waitForFunction(
        () => ['done', 'failed'].includes(document.querySelector('g[data-row="r-28"]')?.dataset.state) ||
          document.querySelector('g[data-row][data-state="failed"]') !== null,
        null, { timeout: 20_000 });
      if (await page.$('g[data-row][data-state="failed"]')) {
        throw new Error(`${spoken}: a row failed: ${await page.textContent(sel.error)}`);
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
      await page.locator(sel.dr).screenshot({ path: join(opt.out, `browse-${spoken}.png`) });

      // Again on the same connection: the browse rows only, no new handshake. In 2026-07-28 the
      // lists are still fresh (ttlMs 300 s): reused, their request rows skipped, nothing sent.
      methods.length = 0;
      await page.click(sel.browse);
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
        await page.locator(sel.dr).screenshot({ path: join(opt.out, 'browse-modern-cached.png') });
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
      await page.click(sel.browse);
      await page.waitForFunction(
        () => ['done', 'failed'].includes(document.querySelector('g[data-row="r-28"]')?.dataset.state) ||
          document.querySelector('g[data-row][data-state="failed"]') !== null,
        null, { timeout: 40_000 });
      if (await page.$('g[data-row][data-state="failed"]')) {
        throw new Error(`${spoken}: a row failed: ${await page.textContent(sel.error)}`);
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
      await page.locator(sel.dr).screenshot({ path: join(opt.out, 'task-modern.png') });
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
      await page.locator(sel.timeline).screenshot({ path: join(opt.out, 'timeline-task.png') });
    }
  },

  async 'Tasks in 2025-11-25: the reference server-everything runs its research as a task'(page) {
    need('everything');
    const methods = rpcMethods(page);
    const server = encodeURIComponent(need('everything'));
    await page.goto(`${need('base')}/?server=${server}&speed=instant&era=legacy&view=timeline`);
    await page.click('#mf-connection > summary');
    await page.click(sel.browse);
    // The subscription may wait its 15 s for an update; the research takes four 1 s stages.
    await page.waitForFunction(
      () => ['done', 'failed'].includes(document.querySelector('#mf-dr g[data-row="r-28"]')?.dataset.state) ||
        document.querySelector('#mf-dr g[data-row][data-state="failed"]') !== null,
      null, { timeout: 60_000 });
    if (await page.$('#mf-dr g[data-row][data-state="failed"]')) {
      throw new Error(`a row failed: ${await page.textContent(sel.error)}`);
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
    await page.locator(sel.dr).screenshot({ path: join(opt.out, 'task-legacy.png') });
    check(await page.$('#mf-timeline g.mf-span[data-lane="Tasks"][data-row="r-23"]'), 'no task span on the timeline');
  },
};
