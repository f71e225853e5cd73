// What the scenarios share about the page: its rows and answer, waiting for a run, the era it
// speaks, the settings panel, the requests it sends, scrolling and following, and the dialog a
// link's approve=auto brings. Selectors come from the page object (./selectors.mjs).
import { check } from './context.mjs';
import { sel } from './selectors.mjs';

export { sel };

const states = (page, selector) =>
  page.$$eval(selector, (gs) =>
    Object.fromEntries(gs.map((g) => [g.dataset.row, g.dataset.state])),
  );

/** Each row's state, but the App diagram's: a tool's app goes on after the answer, on its own
 * time (`appRows` reads those). */
export const rows = (page) => states(page, '.mf-figure:not(#mf-dp) g[data-row]');

/** The App diagram's rows (MCP Apps). */
export const appRows = (page) => states(page, '#mf-dp g[data-row]');

export const answer = async (page) => ((await page.textContent(sel.answer)) ?? '').trim();

/** Waits for the answer; a failed row fails the scenario with the page's error line. */
export async function finished(page, timeout = 20_000) {
  await page.waitForFunction(
    () =>
      document.querySelector('#mf-answer')?.textContent.trim().length > 0 ||
      document.querySelector('g[data-row][data-state="failed"]') !== null,
    null,
    { timeout },
  );
  if (await page.$('g[data-row][data-state="failed"]')) {
    throw new Error(`a row failed: ${await page.textContent(sel.error)}`);
  }
}

/** A tool's app's own document: the inner frame the sandbox proxy made (`about:srcdoc`). */
export async function appFrame(page) {
  await page.waitForSelector('#mf-app-frame', { timeout: 20_000 });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const inner = page.frames().find((f) => f.url() === 'about:srcdoc');
    if (inner) return inner;
    await page.waitForTimeout(50);
  }
  throw new Error('the proxy rendered no app');
}

/** The names of the split wasm modules (xtask/src/build/split.rs) the page fetches, as it fetches them. */
export const pieces = (page) => {
  const seen = [];
  page.on('request', (r) => {
    const name = r.url().split('/').pop();
    if (/^(split|chunk)_[^/]*\.wasm$/.test(name)) seen.push(name);
  });
  return seen;
};

/** The era the page says it speaks (`data-era` on the root element). */
export const era = (page) => page.evaluate(() => document.documentElement.dataset.era ?? null);

/** The rows the eras add that a plain run skips: the server asked no question; in the legacy
 * era fixed by the link, no modern probe either. */
export const QUESTION_ROWS = ['d2-elicit', 'd2-elicit-ask', 'd2-elicit-answer', 'd2-elicit-reply'];
/** The roots rows a run skips when the server asks for no roots (2026-07-28 draws only the first). */
export const ROOTS_ROWS = ['d2-roots', 'd2-roots-reply'];
/** The sampling rows a run skips when the server asks nothing of the client's model
 * (2026-07-28 draws all but the reply). */
export const SAMPLING_ROWS = ['d2-sample', 'd2-sample-review', 'd2-sample-llm', 'd2-sample-llm-answer',
  'd2-sample-approve', 'd2-sample-reply'];
export const PROBE_ROWS = ['d1-discover', 'd1-discover-result'];
/** The rows of a tool list listed again after the server said it changed (2025-11-25 only). */
export const RELIST_ROWS = ['d2-relist', 'd2-relist-result'];

/** Every row ended done, except the ones listed as skipped (and the era's unused rows). */
export async function allDone(page, skipped) {
  const states = await rows(page);
  const spoken = await era(page);
  // The seeds' 23 rows and the 16 added (probe, a form, the roots, the model, the list again);
  // 2026-07-28 draws 32 (no handshake, the roots and the model's answer go back with the retry,
  // no list changed on a stream).
  const expected = spoken === 'modern' ? 32 : 39;
  check(Object.keys(states).length === expected,
    `expected ${expected} rows in the ${spoken} era, got ${Object.keys(states).length}`);
  const skip = [...skipped, ...QUESTION_ROWS, ...ROOTS_ROWS, ...SAMPLING_ROWS,
    ...(spoken === 'legacy' ? [...PROBE_ROWS, ...RELIST_ROWS] : [])];
  for (const [id, state] of Object.entries(states)) {
    const want = skip.includes(id) ? 'skipped' : 'done';
    check(state === want, `row ${id}: ${state}, expected ${want}`);
  }
}

/** Opens the settings panel unless it is open (it is on a wide screen). */
export async function openSettings(page) {
  await page.waitForSelector(sel.settingsPanel, { state: 'attached' });
  if (!(await page.evaluate(() => document.querySelector('#mf-settings-panel').open))) {
    await page.click('#mf-settings-panel > summary');
  }
}

/** The JSON-RPC methods the page POSTs, in order, as it sends them. */
export function rpcMethods(page) {
  const methods = [];
  page.on('request', (r) => {
    const m = /"method":"([^"]+)"/.exec(r.method() === 'POST' ? r.postData() ?? '' : '');
    if (m) methods.push(m[1]);
  });
  return methods;
}

/** Answers the server's Springfield question with Illinois, which the form must offer. */
export async function answerIllinois(page, spoken) {
  const options = await page.$$eval('.mf-form select option', (os) => os.map((o) => o.value));
  const illinois = options.find((v) => v.includes('Illinois'));
  check(illinois, `${spoken}: Illinois is not offered: ${options}`);
  await page.selectOption('.mf-form select', illinois);
  await page.click(sel.formSend);
}

/** Presses → until `done()` holds (at most `max` presses). */
export async function stepUntil(page, done, max = 80) {
  for (let i = 0; i < max && !(await done()); i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(40);
  }
}

/** An instant run in the seeds' era (2025-11-25); the 2026-07-28 scenarios set their own. */
export const instant = 'speed=instant&approve=auto&autoplay&era=legacy';

/** Where an element is, against the part of the viewport below the sticky player bar. */
export const placement = (page, selector) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const bar = document.querySelector('.mf-player').getBoundingClientRect().bottom;
    const inView = r.top >= Math.max(0, bar) - 1 && r.bottom <= innerHeight + 1 &&
      r.left >= -1 && r.right <= innerWidth + 1 && r.height + r.width > 0;
    return { top: r.top, bottom: r.bottom, bar, inView, scrollY };
  }, selector);

/**
 * Records, on every change of the selected row, where the row that was selected until then had
 * its arrow: the player should have brought it into view during its time as the current row.
 */
export function recordFollowing() {
  window.__follow = [];
  let current = null;
  const sample = (id) => {
    const arrow = document.querySelector(`.mf-row[data-row="${id}"] .mf-arrow`);
    const bar = document.querySelector('.mf-player')?.getBoundingClientRect().bottom ?? 0;
    const r = arrow.getBoundingClientRect();
    window.__follow.push({
      id, top: Math.round(r.top), bottom: Math.round(r.bottom), bar: Math.round(bar),
      inView: r.top >= Math.max(0, bar) - 1 && r.bottom <= innerHeight + 1,
    });
  };
  window.__sampleFollow = () => current && sample(current);
  new MutationObserver(() => {
    const id = document.querySelector('.mf-row.mf-selected')?.dataset.row ?? null;
    if (id !== current) {
      if (current) sample(current);
      current = id;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
}

/** scrollY once it has stopped changing (two readings 200 ms apart agree). */
export async function restingScroll(page) {
  let last = await page.evaluate(() => scrollY);
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(200);
    const now = await page.evaluate(() => scrollY);
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** Waits until the page has stopped scrolling (10 frames without a change). */
export const scrolled = (page) =>
  page.evaluate(() => new Promise((done) => {
    let last = scrollY;
    let still = 0;
    const frame = () => {
      still = scrollY === last ? still + 1 : 0;
      last = scrollY;
      if (still >= 10) done(); else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }));

/** Visible words of the page's own chrome (header, player, settings, export, footer). */
export const chromeText = (page) =>
  page.evaluate(() =>
    ['.mf-header', '.mf-player', '.mf-settings-panel', '.mf-share', '.mf-answer', '.mf-footer',
      '.mf-inspector']
      .map((sel) => document.querySelector(sel)?.innerText ?? '')
      .join('\n'));

/** A link's approve=auto for a server other than the page's own: the first tool call still
 * asks, says why, and the user's yes lets the page's later calls to it go without asking. */
export async function confirmLinkOnce(page) {
  await page.waitForSelector(sel.linkAuto, { timeout: 20_000 });
  const said = await page.textContent(sel.linkAuto);
  check(/without asking/.test(said), `the dialog does not say what the link asked: ${said}`);
  await page.click(sel.yes);
}
