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

/**
 * Runs each `[name, run]` of `chosen` on a fresh page of `browser` (or fails them all with
 * `noBrowser`), logs `ok`/`FAIL` lines and the summary line the test command counts, and returns
 * the number of failures. `onFailure(name, page)` may keep a screenshot.
 */
export async function runAll(chosen, { browser, noBrowser, log = console, onFailure = async () => {} }) {
  let failures = 0;
  for (const [name, run] of chosen) {
    if (!browser) {
      failures++;
      log.error(`FAIL ${name}: ${noBrowser}`);
      continue;
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const started = Date.now();
    try {
      await run(page);
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
      log.log(`ok   ${name} (${Date.now() - started} ms)`);
    } catch (err) {
      failures++;
      log.error(`FAIL ${name}: ${err.message}`);
      await onFailure(name, page).catch(() => {});
    }
    await context.close();
  }
  log.log(`e2e: ${chosen.length - failures} passed, ${failures} failed`);
  return failures;
}
