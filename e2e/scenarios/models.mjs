// The model's side with real models: SmolLM2 in the page, and llama.cpp's llama-server behind
// the OpenAI-compatible provider.
import { join } from 'node:path';
import { opt, need, check } from '../lib/context.mjs';
import { sel, rows, answer, finished, pieces, era, allDone, openSettings, instant } from '../lib/page.mjs';

export default {
  async 'SmolLM2 in the page: a real model runs a Paris question in a worker, then from the cache'(page) {
    // Counts the model's workers the page starts and ends (not the output-schema checker's).
    await page.addInitScript(() => {
      const Base = window.Worker;
      window.__workers = { made: 0, ended: 0 };
      window.Worker = class extends Base {
        constructor(url, options) {
          super(url, options);
          this.__model = String(url).includes('smollm');
          if (this.__model) window.__workers.made++;
        }
        terminate() { if (this.__model) window.__workers.ended++; super.terminate(); }
      };
    });
    const fetched = pieces(page);
    // A city the prompt does not name (the tool's description gives Tokyo as its example), so
    // the call's arguments are the model's reading of the question. Paris has light rain.
    const q = encodeURIComponent('What is the weather like in Paris?');
    await page.goto(`${need('base')}/?llm=smollm2&speed=instant&approve=auto&q=${q}`);
    check((await page.inputValue(sel.llmProvider)) === 'smollm2', 'llm=smollm2 did not pick it');
    // The model's panel (and its worker's reader) come with the in-page model's module, fetched
    // because the model is picked (a page with the offline model does not: see the exports).
    const before = await page.textContent('#mf-smollm .mf-smollm-status');
    check(fetched.some((n) => n.startsWith('split_smollm_page')), `the model's panel without its module: ${fetched}`);
    check(before.includes('144.8 MB'), `the size is not told before the download: ${before}`);
    // Before anyone relies on it, the panel says how often it chooses right (no better than a guess).
    const note = await page.textContent('#mf-smollm');
    check(note.includes('20 times') && note.includes('no better than that guess'), `the model's accuracy is not told: ${note}`);
    // The page's own timer keeps ticking while the model works in its worker: the longest gap
    // bounds a hang of the page's thread (a turn on it would freeze the page for the turn).
    const ticking = () => page.evaluate(() => {
      window.__gaps = [];
      let last = performance.now();
      setInterval(() => { const now = performance.now(); window.__gaps.push(now - last); last = now; }, 50);
    });
    // Round 1 in the default style (function signatures from the schemas), round 2 in the seeds'
    // system-prompt style.
    for (const [round, source] of [[1, 'downloaded'], [2, "from the browser's cache"]]) {
      if (round === 2) {
        fetched.length = 0;
        await page.reload();
        await openSettings(page);
        await page.selectOption(sel.llmStyle, 'prompt');
      }
      await ticking();
      // The first run shows the download's progress where the run is (the inspector).
      const bar = round === 1 ? page.waitForSelector('#mf-model-live progress', { timeout: 60_000 }) : null;
      await page.click(sel.play);
      if (bar) await bar;
      await finished(page, 300_000);
      await allDone(page, ['d2-4', 'd2-5']);
      const said = await answer(page);
      check(/rain/i.test(said), `round ${round}: the answer does not say rain: ${said}`);
      await page.click('g[data-row="d2-7"]');
      const call = await page.textContent('.mf-inspector');
      check(/"location":\s*"Paris"/.test(call), `round ${round}: the call's arguments: ${call.slice(0, 400)}`);
      check(fetched.some((n) => n.startsWith('split_smollm_page')), `round ${round}: the model's reader: ${fetched}`);
      const status = await page.textContent('#mf-smollm .mf-smollm-status');
      check(status.startsWith('Ready') && status.includes(source) && status.includes('tokens/s'),
        `round ${round}: status ${status}`);
      const gap = await page.evaluate(() => Math.max(...window.__gaps));
      check(gap < 3000, `round ${round}: the page's thread stalled for ${Math.round(gap)} ms`);
      console.log(`     round ${round}: ${status}; longest timer gap ${Math.round(gap)} ms`);
      await page.click('g[data-row="d1-8"]');
      const tools = await page.textContent('.mf-inspector');
      const presented = round === 1 ? 'get_weather(location: string' : 'Tool: get_weather';
      check(tools.includes(presented), `round ${round}: d1-8 does not show the tools as ${presented}`);
    }
    // The decision, on d2-3: the tool the model called, with the probability it gave each choice.
    await page.click('g[data-row="d2-3"]');
    const inspector = await page.textContent('.mf-inspector');
    for (const want of ['Decision (probability at the point of choice)', 'get_weather', 'no tool',
      'chat template applied']) {
      check(inspector.includes(want), `the d2-3 inspector lacks ${want}`);
    }
    const p = await page.$eval('.mf-choices tr td.mf-p', (td) => parseFloat(td.textContent));
    check(p > 50 && p <= 100, `get_weather's probability: ${p}%`);
    await page.screenshot({ path: join(opt.out, 'smollm2-run.png') });

    // A run that ends while the model writes stops its worker; the next run starts a new one.
    const workersBefore = await page.evaluate(() => ({ ...window.__workers }));
    await page.click(sel.restart);
    await page.waitForSelector(sel.smollmText, { timeout: 120_000 });
    // The text being written shows on the row of the model's turn too.
    const streamed = await page.waitForSelector(
      'g[data-row="d2-3"] .mf-stream, g[data-row="d2-11"] .mf-stream',
      { timeout: 120_000 },
    );
    const tail = await streamed.textContent();
    check(tail.trim().length > 0, 'the row shows no text while the model writes');
    console.log(`     on the row while writing: ${tail}`);
    await page.click(sel.restart);
    await finished(page, 300_000);
    const workersAfter = await page.evaluate(() => ({ ...window.__workers }));
    check(workersAfter.ended === workersBefore.ended + 1 && workersAfter.made === workersBefore.made + 1,
      `workers before ${JSON.stringify(workersBefore)}, after ${JSON.stringify(workersAfter)}`);
    check(/rain/i.test(await answer(page)), `after the restart: ${await answer(page)}`);
  },

  async "SmolLM2 in the page answers our server's sampling request (/packing) in both eras, the user editing its answer"(page) {
    // The question names the tool: asked for "packing advice", the 135M model calls get_weather
    // (the endpoint lists both), as it does for most questions.
    const q = encodeURIComponent('Call packing_advice for Tokyo');
    const server = encodeURIComponent(`${need('base')}/packing`);
    for (const spoken of ['legacy', 'modern']) {
      await page.goto(`${need('base')}/?server=${server}&llm=smollm2&era=${spoken}&q=${q}&speed=instant&approve=auto`);
      await page.click(sel.play);
      // The model picks the tool; the server then asks the page's model, and the user sees it first.
      await page.waitForSelector(sel.samplingSend, { timeout: 300_000 });
      const asked = await page.inputValue('#mf-sampling-msg-0');
      check(asked.startsWith('The weather in Tokyo is sunny'), `${spoken}: the request: ${asked}`);
      await page.click(sel.samplingSend);
      // SmolLM2 writes the answer in its worker (a real completion, within the request's 120 tokens).
      await page.waitForSelector(sel.samplingAnswer, { timeout: 300_000 });
      const title = await page.textContent('#mf-sampling-title');
      check(/SmolLM2/i.test(title), `${spoken}: the answer's model: ${title}`);
      const written = await page.inputValue(sel.samplingAnswer);
      check(written.trim().length > 0 && !written.includes('offline model'), `${spoken}: SmolLM2's answer: ${written}`);
      console.log(`     ${spoken}: SmolLM2 wrote: ${written.slice(0, 120)}`);
      await page.fill(sel.samplingAnswer, 'Pack a light jacket.');
      await page.screenshot({ path: join(opt.out, `sampling-smollm2-${spoken}.png`) });
      await page.click(sel.samplingApprove);
      await finished(page, 300_000);
      check((await era(page)) === spoken, `data-era: ${await era(page)}`);
      const s = await rows(page);
      const drawn = ['d2-sample', 'd2-sample-llm', 'd2-sample-llm-answer', 'd2-sample-approve',
        spoken === 'legacy' ? 'd2-sample-reply' : 'd2-elicit-reply'];
      for (const id of drawn) check(s[id] === 'done', `${spoken}: ${id} is ${s[id]}`);
      await page.click('g[data-row="d2-8"]');
      const result = await page.textContent('.mf-inspector');
      check(result.includes('Pack a light jacket.'), `${spoken}: the tool's result does not quote the edited answer`);
    }
  },

  async "llama.cpp's llama-server: the OpenAI-compatible provider against a real server, in both tool-calling styles"(page) {
    need('llama-base');
    // What went to llama-server and what it answered, read off the wire.
    const exchanges = [];
    page.on('response', (r) => {
      if (!r.url().startsWith(need('llama-base')) || r.request().method() !== 'POST') return;
      exchanges.push({ sent: JSON.parse(r.request().postData() ?? 'null'), reply: r.json().catch(() => null) });
    });
    const q = encodeURIComponent('What is the weather like in Paris?');
    const fetched = pieces(page);
    for (const style of ['native', 'prompt']) {
      exchanges.length = 0;
      await page.goto(`${need('base')}/?speed=instant&approve=auto&era=legacy&q=${q}`);
      await openSettings(page);
      await page.selectOption(sel.llmProvider, 'openai');
      await page.fill(sel.llmBase, `${need('llama-base')}/v1`);
      await page.press(sel.llmBase, 'Tab');
      await page.fill(sel.llmModel, 'SmolLM2-135M-Instruct');
      await page.press(sel.llmModel, 'Tab');
      await page.selectOption(sel.llmStyle, style);
      await page.click(sel.play);
      await finished(page, 120_000);
      // A model other than the offline one comes in the models' module.
      check(fetched.some((n) => n.startsWith('split_models')), `${style}: the models' module: ${fetched}`);
      fetched.length = 0;
      check(exchanges.length >= 1, `${style}: nothing reached llama-server`);
      const [first] = exchanges;
      const system = first.sent.messages.find((m) => m.role === 'system')?.content ?? '';
      if (style === 'native') {
        check(first.sent.tools?.[0]?.function?.name === 'get_weather',
          `native: the request's tools: ${JSON.stringify(first.sent.tools)?.slice(0, 200)}`);
        check(!system.includes('get_weather'), 'native: the tools went in a system message too');
      } else {
        check(first.sent.tools === undefined, 'prompt style: the request carries tools');
        check(system.includes('Tool: get_weather'), `prompt style: the system message: ${system.slice(0, 200)}`);
      }
      const reply = await first.reply;
      const message = reply?.choices?.[0]?.message;
      check(message, `${style}: llama-server's reply has no message: ${JSON.stringify(reply)?.slice(0, 300)}`);
      // The model's own choice (greedy, so the same each run): a call, or text.
      const called = style === 'native'
        ? (message.tool_calls ?? []).length > 0
        : /"tool_name"\s*:\s*"get_weather"/.test(message.content ?? '');
      const states = await rows(page);
      check(states['d2-3'] === 'done', `${style}: d2-3 is ${states['d2-3']}`);
      if (called) {
        check(states['d2-7'] === 'done' && exchanges.length === 2,
          `${style}: the model called get_weather, but d2-7 is ${states['d2-7']} after ${exchanges.length} model turns`);
        check((await answer(page)) === (await exchanges[1].reply)?.choices?.[0]?.message?.content?.trim(),
          `${style}: the answer is not the model's second reply`);
      } else {
        for (const id of ['d2-4', 'd2-7', 'd2-8', 'd2-11']) {
          check(states[id] === 'skipped', `${style}: no tool was called, yet ${id} is ${states[id]}`);
        }
        check(exchanges.length === 1, `${style}: ${exchanges.length} model turns for a text reply`);
        check((await answer(page)) === (message.content ?? '').trim(),
          `${style}: the answer is not the model's text: ${await answer(page)}`);
      }
      console.log(`     ${style}: ${called ? 'called get_weather' : 'answered in text, no tool'}; ` +
        `${reply.usage?.prompt_tokens} prompt tokens`);
      await page.screenshot({ path: join(opt.out, `llama-server-${style}.png`) });
    }
  },
};
