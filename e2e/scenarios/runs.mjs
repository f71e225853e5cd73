// Whole runs of the two diagrams: both eras, deep links, the server's question, the comparison,
// Step mode, Decline, the calculator.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import {
  sel, rows, answer, finished, pieces, era, QUESTION_ROWS, allDone, answerIllinois, stepUntil,
  instant, placement, openSettings,
} from '../lib/page.mjs';

export default {
  async 'a full run in 2026-07-28, the era a new server speaks'(page) {
    await page.goto(`${need('base')}/?speed=instant&approve=auto&autoplay`);
    await finished(page);
    check((await era(page)) === 'modern', `data-era: ${await era(page)}`);
    await allDone(page, ['d2-4', 'd2-5']);
    check((await answer(page)) === 'The weather in Tokyo is sunny, 22 °C.', `answer: ${await answer(page)}`);
    check(!(await page.$('g[data-row="d1-1"]')), 'an initialize row in the 2026-07-28 diagram');
    const line = await page.textContent(sel.eraLine);
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
    check((await page.inputValue(sel.era)) === 'modern', 'the era picker does not say modern');
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
      await page.waitForSelector(sel.formTitle, { timeout: 20_000 });
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

  async "our server asks the client's model and roots (/packing) in both eras"(page) {
    const q = encodeURIComponent('Packing advice for Tokyo');
    const server = encodeURIComponent(`${need('base')}/packing`);
    for (const spoken of ['modern', 'legacy']) {
      await page.goto(`${need('base')}/?server=${server}&era=${spoken}&q=${q}&speed=instant&approve=auto`);
      await openSettings(page);
      if (!(await page.isVisible(sel.roots))) await page.click('#mf-advanced > summary');
      await page.fill(sel.roots, 'file:///home/me/trips Trips');
      await page.click(sel.play);
      // The roots go to this server only once the user shares them with it (asked once a page,
      // before or after the model's request, as the server asks).
      const shareRoots = (async () => {
        await page.waitForSelector('#mf-roots-share', { timeout: 30_000 });
        const named = await page.textContent('#mf-roots-server');
        check(named === new URL(need('base')).origin, `${spoken}: the roots dialog names ${named}`);
        await page.click('#mf-roots-share');
      })();
      // The user sees the request before any model does, even with approve=auto.
      await page.waitForSelector(sel.samplingSend, { timeout: 20_000 });
      const limits = await page.textContent(sel.samplingLimits);
      check(limits.includes('120'), `${spoken}: the request's limits: ${limits}`);
      const asked = await page.inputValue('#mf-sampling-msg-0');
      check(asked.startsWith('The weather in Tokyo is sunny'), `${spoken}: the request: ${asked}`);
      await page.screenshot({ path: join(opt.out, `sampling-request-${spoken}.png`) });
      await page.click(sel.samplingSend);
      await page.waitForSelector(sel.samplingAnswer, { timeout: 20_000 });
      const written = await page.inputValue(sel.samplingAnswer);
      check(written.includes('offline model'), `${spoken}: the offline model's answer: ${written}`);
      await page.fill(sel.samplingAnswer, 'Pack sunglasses and sunscreen.');
      await page.screenshot({ path: join(opt.out, `sampling-answer-${spoken}.png`) });
      await page.click(sel.samplingApprove);
      await shareRoots;
      await finished(page);
      check((await era(page)) === spoken, `data-era: ${await era(page)}`);
      const s = await rows(page);
      const drawn = ['d2-sample', 'd2-sample-review', 'd2-sample-llm', 'd2-sample-llm-answer', 'd2-sample-approve',
        'd2-roots', ...(spoken === 'legacy' ? ['d2-sample-reply', 'd2-roots-reply'] : ['d2-elicit-reply'])];
      for (const id of drawn) check(s[id] === 'done', `${spoken}: ${id} ${s[id]}`);
      await page.click('g[data-row="d2-8"]');
      const result = await page.textContent('.mf-inspector');
      check(result.includes('Pack sunglasses and sunscreen.') && result.includes('file:///home/me/trips'),
        `${spoken}: the tool's result does not quote the edited advice and the root`);
      await page.locator('g[data-row="d2-sample"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(opt.out, `sampling-diagram-${spoken}.png`) });
    }
  },

  async 'the comparison of the eras'(page) {
    const fetched = pieces(page);
    await page.goto(`${need('base')}/?speed=instant&approve=auto`);
    await page.click(sel.compareButton);
    await page.waitForSelector(sel.compareTable, { timeout: 40_000 });
    check(fetched.some((n) => n.startsWith('split_ui_compare')), `the comparison's view was not fetched: ${fetched}`);
    const figures = await page.$$eval('#mf-compare-table tr', (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
    writeFileSync(join(opt.out, 'compare.json'), JSON.stringify(figures, null, 2));
    const requests = figures.find((r) => r[0] === 'HTTP requests');
    check(requests && Number(requests[1]) > Number(requests[2]),
      `legacy should send more requests: ${JSON.stringify(requests)}`);
    check((await era(page)) === 'modern', 'the modern run is not the one shown');
    await page.locator(sel.compare).scrollIntoViewIfNeeded();
    await page.locator(sel.compare).screenshot({ path: join(opt.out, 'compare.png') });
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
    await page.waitForSelector(sel.no, { timeout: 20_000 });
    const title = await page.textContent(sel.dialogTitle);
    check(title.includes('get_weather'), `dialog title: ${title}`);
    await page.click(sel.no);
    await finished(page);
    const s = await rows(page);
    for (const id of ['d2-6', 'd2-7', 'd2-8']) check(s[id] === 'skipped', `${id}: ${s[id]}`);
    check(s['d2-5'] === 'done', `d2-5: ${s['d2-5']}`);
    check((await answer(page)).includes('declined'), `answer: ${await answer(page)}`);
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
        question: await p.inputValue(sel.question),
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
    const question = await page.inputValue(sel.question);
    check(question === 'What is 3 times 111?', `question: ${question}`);
    check((await answer(page)).includes('333'), `answer: ${await answer(page)}`);
    await page.screenshot({ path: join(opt.out, 'calculator.png'), fullPage: true });
  },
};
