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
 * Runs each `[name, run]` of `chosen` on a fresh page of `browser` (or fails them all with
 * `noBrowser`), logs `ok`/`FAIL` lines and the summary line the test command counts, and returns
 * the number of failures. A scenario that fails is tried once more on a fresh page: passing then,
 * it counts as passed and is recapped as `FLAKY name: why the first try failed` (a busy machine
 * shows a timing assumption that way, and the report names it). `onFailure(name, page)` may keep
 * a screenshot.
 */
export async function runAll(chosen, { browser, noBrowser, log = console, onFailure = async () => {} }) {
  let failures = 0;
  const recap = [];
  const line = (err) => err.message.split('\n')[0].slice(0, 300);
  for (const [name, run] of chosen) {
    if (!browser) {
      failures++;
      recap.push(`FAIL ${name}: ${noBrowser}`);
      log.error(`FAIL ${name}: ${noBrowser}`);
      continue;
    }
    const started = Date.now();
    const first = await attempt(browser, run, (page) => onFailure(name, page));
    if (!first) {
      log.log(`ok   ${name} (${Date.now() - started} ms)`);
      continue;
    }
    log.error(`RETRY ${name}: ${first.message}`);
    const again = await attempt(browser, run, (page) => onFailure(name, page));
    if (!again) {
      log.log(`ok   ${name} (${Date.now() - started} ms, on the second try)`);
      recap.push(`FLAKY ${name}: ${line(first)}`);
      continue;
    }
    failures++;
    recap.push(`FAIL ${name}: ${line(again)}`);
    log.error(`FAIL ${name}: ${again.message}`);
  }
  // Failures and flaky passes again, on stdout, one line each: the test command's report names them.
  for (const l of recap) log.log(l);
  log.log(`e2e: ${chosen.length - failures} passed, ${failures} failed`);
  return failures;
}
