// The e2e suite's runner: the servers a scenario needs, and the loop that runs every scenario in
// a fresh browser context and counts it. A server the test command could not start fails only
// the scenarios that read it; a browser that did not start fails every scenario with that reason.

/** Why each server the test command could not start is missing, from `--unavailable NAME=WHY`. */
export function unavailable(list) {
  return Object.fromEntries(list.map((s) => {
    const at = s.indexOf('=');
    return at < 0 ? [s, 'it did not start'] : [s.slice(0, at), s.slice(at + 1)];
  }));
}

/** `need(name)`: the URL of server option `name`, or an error saying why it is missing. */
export function servers(options, down) {
  return (name) => {
    if (down[name]) throw new Error(`needs --${name}, which the test command could not start: ${down[name]}`);
    if (!options[name]) throw new Error(`this scenario needs --${name} URL`);
    return options[name];
  };
}

/** One try of `run` on a fresh page; `onFailure(page, err)` runs before the page closes. */
async function attempt(browser, run, onFailure) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  try {
    await run(page);
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return null;
  } catch (err) {
    await onFailure(page, err).catch(() => {});
    return err;
  } finally {
    await context.close();
  }
}

/**
 * Runs each `[name, run, area]` of `chosen` on a fresh page of `browser` (or fails them all with
 * `noBrowser`), logs `ok`/`FAIL` lines and the summary line the test command counts, and returns
 * the number of failures. `jobs` lanes run side by side, each taking the next whole area: the
 * scenarios of one area (which may share a server's state, such as a watching bridge's feed) run
 * one after another, in their order. The areas named in `alone` (those that keep both cores busy,
 * such as a model in the page) run after the others, with nothing beside them. A scenario that fails is tried once more on a fresh page,
 * with nothing beside it (the other lanes finish their scenario and wait): passing then, it counts
 * as passed and is recapped as `FLAKY name: why the first try failed` (a busy machine shows a
 * timing assumption that way, and the report names it).
 * `onFailure(name, page)` may keep a screenshot.
 */
export async function runAll(chosen, { browser, noBrowser, jobs = 1, alone = [], log = console, onFailure = async () => {} }) {
  let failures = 0;
  const recap = [];
  const line = (err) => err.message.split('\n')[0].slice(0, 300);
  // Scenarios running now, and the retry that has the machine to itself while it runs.
  let running = 0;
  let exclusive = null;
  const waitingForIdle = [];
  const enter = async () => {
    while (exclusive) await exclusive;
    running++;
  };
  const leave = () => {
    running--;
    if (running === 0) waitingForIdle.splice(0).forEach((resolve) => resolve());
  };
  const byItself = async (fn) => {
    leave();
    while (exclusive) await exclusive;
    let release;
    exclusive = new Promise((resolve) => { release = resolve; });
    if (running > 0) await new Promise((resolve) => waitingForIdle.push(resolve));
    try {
      return await fn();
    } finally {
      exclusive = null;
      release();
      await enter();
    }
  };
  const one = async (scenario) => {
    await enter();
    try {
      await tried(scenario);
    } finally {
      leave();
    }
  };
  const tried = async ([name, run]) => {
    if (!browser) {
      failures++;
      recap.push(`FAIL ${name}: ${noBrowser}`);
      log.error(`FAIL ${name}: ${noBrowser}`);
      return;
    }
    const started = Date.now();
    const first = await attempt(browser, run, (page) => onFailure(name, page));
    if (!first) {
      log.log(`ok   ${name} (${Date.now() - started} ms)`);
      return;
    }
    log.error(`RETRY ${name}: ${first.message}`);
    const again = await byItself(() => attempt(browser, run, (page) => onFailure(name, page)));
    if (!again) {
      log.log(`ok   ${name} (${Date.now() - started} ms, on the second try)`);
      recap.push(`FLAKY ${name}: ${line(first)}`);
      return;
    }
    failures++;
    recap.push(`FAIL ${name}: ${line(again)}`);
    log.error(`FAIL ${name}: ${again.message}`);
  };
  const side = (area) => !alone.includes(area);
  const queue = areas(chosen.filter(([, , area]) => side(area)));
  const lane = async () => {
    for (let area = queue.shift(); area; area = queue.shift()) {
      for (const scenario of area) await one(scenario);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(jobs) || 1) }, lane));
  for (const scenario of chosen.filter(([, , area]) => !side(area))) await one(scenario);
  // Failures and flaky passes again, on stdout, one line each: the test command's report names them.
  for (const l of recap) log.log(l);
  log.log(`e2e: ${chosen.length - failures} passed, ${failures} failed`);
  return failures;
}

/** `chosen` grouped by area, in the order each area first appears; a scenario without one is
 * an area of its own. */
export function areas(chosen) {
  const by = new Map();
  for (const [name, run, area = name] of chosen) {
    if (!by.has(area)) by.set(area, []);
    by.get(area).push([name, run]);
  }
  return [...by.values()];
}
