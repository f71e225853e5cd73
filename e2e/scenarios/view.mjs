// The page itself: following the run, scrolling, language, theme, layout, and an accessibility
// audit.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import {
  sel, rows, answer, finished, era, allDone, openSettings, instant, placement, recordFollowing,
  restingScroll, scrolled, chromeText,
} from '../lib/page.mjs';

/** axe-core (pinned, installed with the test tools) run on the page as it is: its violations. */
async function axe(page) {
  const tools = process.env.MCP_FLOW_TOOLS ?? join(homedir(), '.cache/mcp-flow');
  const source = readFileSync(join(tools, 'npm/node_modules/axe-core/axe.min.js'), 'utf8');
  // Evaluated through the browser's protocol, so the page's Content-Security-Policy lets it in.
  await page.evaluate(source);
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes.map((n) => n.target.join(' ')).slice(0, 12).join(', ') })));
}

export default {
  async 'accessibility: axe-core finds no serious or critical violation on the page, mid-run, in the inspector and each dialog, light and dark'(page) {
    const report = [];
    const serious = [];
    const audit = async (where) => {
      const found = await axe(page);
      const counts = {};
      for (const v of found) counts[v.impact] = (counts[v.impact] ?? 0) + 1;
      report.push(`${where}: ${found.length} violations ${JSON.stringify(counts)}`);
      for (const v of found.filter((x) => ['serious', 'critical'].includes(x.impact))) {
        serious.push(`${where}: ${v.impact} ${v.id} on ${v.nodes} element(s), first ${v.first}`);
      }
    };
    await page.goto(`${need('base')}/?speed=instant`);
    await page.waitForSelector('g[data-row]');
    await audit('first load, light');
    // The first screen at 1280x800, light and dark: the settings in order and the diagram below.
    await page.screenshot({ path: join(opt.out, 'first-load-1280-light.png') });
    const diagramTop = await page.$eval('.mf-diagrams', (d) => d.getBoundingClientRect().top);
    check(diagramTop < 700, `the diagram starts at ${diagramTop}px on a 1280x800 first load`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${need('base')}/?speed=instant`);
    await page.waitForSelector('g[data-row]');
    await audit('first load, dark');
    await page.screenshot({ path: join(opt.out, 'first-load-1280-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    // Mid-run: step mode, a few rows done, one waiting.
    await page.goto(`${need('base')}/?mode=step&era=legacy&speed=instant`);
    await page.waitForSelector('g[data-row="d1-1"]');
    for (let i = 0; i < 4; i++) await page.click(sel.next);
    await page.waitForSelector('g[data-row][data-state="done"]');
    await audit('mid-run (step mode)');
    // The inspector with an exchange open.
    await page.click('g[data-row="d1-1"]');
    await page.waitForSelector('.mf-inspector details');
    await page.$$eval('.mf-inspector details', (ds) => ds.forEach((d) => { d.open = true; }));
    await audit('the inspector, an exchange open');
    // The dialogs: approval, the server's question, the user in the model's place.
    await page.goto(`${need('base')}/?speed=instant&era=legacy`);
    await page.click(sel.play);
    await page.waitForSelector(sel.yes, { timeout: 20_000 });
    await audit('the approval dialog');
    const q = encodeURIComponent("What's the weather in Springfield?");
    await page.goto(`${need('base')}/?era=legacy&q=${q}&speed=instant&approve=auto&autoplay`);
    await page.waitForSelector(sel.formTitle, { timeout: 20_000 });
    await audit("the server's question form");
    await page.goto(`${need('base')}/?llm=you&speed=instant&approve=auto&autoplay&era=legacy`);
    await page.waitForSelector(sel.you, { timeout: 20_000 });
    await audit('the "you are the model" dialog');
    const packing = encodeURIComponent(`${need('base')}/packing`);
    const tip = encodeURIComponent('Packing advice for Tokyo');
    await page.goto(`${need('base')}/?server=${packing}&q=${tip}&llm=offline&speed=instant&approve=auto&era=legacy`);
    await page.click(sel.play);
    await page.waitForSelector(sel.samplingSend, { timeout: 20_000 });
    await audit("the server's sampling request");
    await page.click(sel.samplingSend);
    await page.waitForSelector(sel.samplingAnswer, { timeout: 20_000 });
    await audit("the model's answer to approve");
    console.log(`     axe-core: ${report.join('; ')}`);
    check(serious.length === 0, `serious or critical:\n${serious.join('\n')}`);
  },

  async 'a Play run at 1x keeps the current row in view'(page) {
    await page.addInitScript(recordFollowing);
    await page.goto(`${need('base')}/?approve=auto&autoplay`);
    // The settings make way for the diagrams once the run starts.
    await page.waitForFunction(() => !document.querySelector('#mf-settings-panel').open);
    // Mid-run (the selection is the newest row; states stay, so a busy machine cannot miss it).
    await page.waitForSelector('.mf-row[data-row="d2-7"]:not([data-state="pending"])', { state: 'attached', timeout: 40_000 });
    await scrolled(page);
    await page.screenshot({ path: join(opt.out, 'player-1280.png') });
    await finished(page, 40_000);
    await page.waitForTimeout(700);
    await page.evaluate(() => window.__sampleFollow());
    const samples = await page.evaluate(() => window.__follow);
    const out = samples.filter((s) => !s.inView);
    // Every row that ran was the current row once (20 in 2026-07-28, 21 in 2025-11-25).
    const ran = Object.values(await rows(page)).filter((s) => s === 'done').length;
    check(samples.length >= ran, `only ${samples.length} of ${ran} rows were current: ${samples.map((s) => s.id)}`);
    check(out.length === 0, `rows out of view while current: ${JSON.stringify(out)}`);
    check((await page.evaluate(() => scrollY)) > 0, 'the page never scrolled');
  },

  async 'a user scroll stops following and the toggle brings the run back'(page) {
    await page.goto(`${need('base')}/?approve=auto&autoplay&speed=2`);
    await page.waitForSelector('.mf-row[data-row="d1-8"]:not([data-state="pending"])', { state: 'attached', timeout: 20_000 });
    check((await page.getAttribute(sel.follow, 'aria-pressed')) === 'true', 'not following at the start');
    await page.mouse.move(400, 500);
    await page.mouse.wheel(0, -3000);
    await page.waitForFunction(() => document.querySelector('#mf-follow').getAttribute('aria-pressed') === 'false');
    // The wheel's own smooth scroll may still be moving on a busy machine: wait until it rests.
    const away = await restingScroll(page);
    // The run goes on; the page stays where the user put it.
    await page.waitForSelector('.mf-row[data-row="d2-3"]:not([data-state="pending"])', { state: 'attached', timeout: 20_000 });
    check((await page.evaluate(() => scrollY)) === away, 'the page scrolled back while not following');
    await page.click(sel.follow);
    check((await page.getAttribute(sel.follow, 'aria-pressed')) === 'true', 'the toggle did not resume');
    await finished(page, 30_000);
    await page.waitForTimeout(900);
    const at = await placement(page, '.mf-row.mf-selected');
    check(at?.inView, `the run's last row is not in view after resuming: ${JSON.stringify(at)}`);
  },

  async 'the language switch turns the whole page Chinese'(page) {
    await page.goto(`${need('base')}/?approve=auto`);
    await page.waitForSelector(sel.play);
    await page.selectOption(sel.lang, 'zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await openSettings(page);
    const words = {
      '#mf-play': '播放', '#mf-back': '上一步', '#mf-next': '下一步', '#mf-restart': '重新开始',
      '#mf-connect': '连接', '#mf-ask': '提问', '#mf-export-json': '导出',
      '.mf-settings-title': '设置', '.mf-footer': '快捷键',
    };
    for (const [sel, want] of Object.entries(words)) {
      const got = await page.textContent(sel);
      check(got.includes(want), `${sel}: ${got}`);
    }
    const labels = await page.$$eval('.mf-settings label, .mf-speed', (ls) => ls.map((l) => l.innerText));
    check(labels.some((l) => l.includes('MCP 服务器')) && labels.some((l) => l.includes('问题')), `labels: ${labels}`);
    check((await page.inputValue(sel.question)) === '东京的天气怎么样？', 'the example question stayed English');
    // Run it: the inspector's words follow too.
    await page.click(sel.play);
    await page.selectOption(sel.speed, 'instant');
    await finished(page);
    await page.click('.mf-row[data-row="d2-7"]');
    await page.waitForTimeout(100);
    const text = await chromeText(page);
    for (const english of ['Play', 'Pause', 'Back', 'Next', 'Restart', 'Connect', 'Ask', 'Speed',
      'Follow', 'Settings', 'Question', 'Language', 'Theme', 'Export', 'Import', 'Answer', 'Keys',
      'Wire detail', 'Request headers', 'Response headers', 'Copy', 'Specification', 'done']) {
      check(!new RegExp(`\\b${english}\\b`).test(text), `"${english}" is still on the page`);
    }
    check(text.includes('请求头') && text.includes('复制为 curl'), 'the inspector is not Chinese');
    check((await page.textContent('.mf-inspect .mf-state')) === '完成', 'status word');
  },

  async 'the theme switch sets data-theme and is remembered'(page) {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${need('base')}/`);
    await page.waitForSelector(sel.theme);
    check((await page.evaluate(() => document.documentElement.dataset.theme)) === undefined, 'auto sets no data-theme');
    const light = await background();
    await page.selectOption(sel.theme, 'dark');
    check((await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', 'data-theme');
    const dark = await background();
    check(dark !== light, `the background stayed ${dark}`);
    await page.reload();
    await page.waitForSelector(sel.theme);
    check((await page.evaluate(() => document.documentElement.dataset.theme)) === 'dark', 'not remembered');
    check((await page.inputValue(sel.theme)) === 'dark', 'the picker forgot');
    // Auto follows the system; light wins over a dark system.
    await page.selectOption(sel.theme, 'auto');
    await page.emulateMedia({ colorScheme: 'dark' });
    check((await background()) === dark, 'auto does not follow a dark system');
    await page.selectOption(sel.theme, 'light');
    check((await background()) === light, 'light does not override a dark system');
  },

  async 'the layout works at 1024 px and on a phone'(page) {
    const layout = () => page.evaluate(() => {
      const box = (sel) => document.querySelector(sel).getBoundingClientRect();
      return {
        overflow: document.documentElement.scrollWidth - innerWidth,
        bar: box('.mf-player').height,
        diagrams: box('.mf-diagrams'),
        inspector: box('.mf-inspector'),
      };
    });
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${need('base')}/?${instant}`);
    await finished(page);
    let l = await layout();
    check(l.overflow <= 0, `1024: the page scrolls sideways by ${l.overflow}px`);
    check(l.inspector.left >= l.diagrams.right, '1024: the inspector is not beside the diagrams');
    check(l.bar < 60, `1024: the player bar wraps (${l.bar}px)`);
    await page.setViewportSize({ width: 390, height: 844 });
    // Another query string: a change of the hash alone would not load the page again.
    await page.goto(`${need('base')}/?${instant}&lang=en#d1-3`);
    await finished(page);
    l = await layout();
    check(l.overflow <= 0, `390: the page scrolls sideways by ${l.overflow}px`);
    check(l.inspector.top >= l.diagrams.bottom - 1, '390: the inspector is not below the diagrams');
    check(!(await page.evaluate(() => document.querySelector('#mf-settings-panel').open)), '390: settings open');
    // (The row's arrow: the row itself spans the whole diagram, wider than a phone.)
    const at = await placement(page, '.mf-row[data-row="d1-3"] .mf-arrow');
    check(at.inView, `390: the linked row is out of view: ${JSON.stringify(at)}`);
    // The diagrams are drawn at their own scale (labels readable) and scroll sideways in their
    // column, not shrunk to the phone's width.
    const scale = await page.$eval('.mf-diagram', (svg) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
    check(scale > 0.95, `390: the diagram is drawn at ${scale.toFixed(2)} of its size`);
    const column = await page.$eval('.mf-diagrams', (d) => ({ scroll: d.scrollWidth, width: d.clientWidth }));
    check(column.scroll > column.width, `390: the diagrams' column does not scroll: ${JSON.stringify(column)}`);
    await page.screenshot({ path: join(opt.out, 'player-390.png') });
  },

  async 'chinese mode'(page) {
    await page.goto(`${need('base')}/?lang=zh&${instant}`);
    await finished(page);
    await allDone(page, ['d2-4', 'd2-5']);
    check((await answer(page)) === '东京的天气是晴天，22 °C。', `answer: ${await answer(page)}`);
    check((await page.textContent('figure')).includes('内置离线模型'), 'the LLM subtitle is not Chinese');
  },
};
