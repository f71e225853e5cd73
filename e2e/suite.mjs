// End-to-end tests of the shipped build: the release app served by `weather-server --static`,
// driven in Debian's headless Chromium through playwright-core (no browser download).
//
//   node e2e/suite.mjs --base http://127.0.0.1:PORT --out DIR [--faulty URL] [--auth-base URL]
//                      [--llama-base URL] [--everything URL]
//                      [--oidc-base URL --oidc-client ID] [--only NAME]
//                      [--unavailable NAME=WHY]... [--jobs N] [--list]
//
// --auth-base is the same app served by `weather-server --auth` (a protected resource with its
// demo authorization server and consent page); the authorization scenario needs it.
// --oidc-base is the app served by `weather-server --auth --auth-issuer` in front of
// oidc-provider (e2e/oidc-provider.mjs), where ID is the client pre-registered there.
// --llama-base is llama.cpp's llama-server serving SmolLM2 (OpenAI-compatible, greedy).
// --everything is the reference server-everything (2025-11-25 tasks) through mcp-flow-bridge http.
// --faulty is the base URL of `mcp-flow-test-servers faulty` (a server that breaks the protocol
// on purpose); the scenarios that need it fail without it.
// --unavailable NAME=WHY says that the server an option names (base, auth-base, oidc-base,
// faulty, everything, llama-base) could not be started, and why: every scenario that uses it
// fails with that reason, the others run. --jobs N runs N areas side by side (default 1; the
// scenarios of one area run one after another). --list prints the scenarios' names and their count.
//
// Each scenario opens a fresh page, drives it as a user would and checks what the page shows.
// Screenshots go to DIR: finished-run.png (the README's screenshot), player-1280.png (a Play run
// following its current row) and player-390.png (a phone), among others.
// The scenarios live by area in scenarios/*.mjs, the page object in lib/ (selectors.mjs, page.mjs),
// the options in lib/context.mjs, the runner in runner.mjs. Exits 1 if any scenario fails.
// playwright-core is resolved normally, else from the project's tools folder ($MCP_FLOW_TOOLS,
// default ~/.cache/mcp-flow) where `cargo xtask test` installs it.
import { join } from 'node:path';
import { launchChromium } from './browser.mjs';
import { opt } from './lib/context.mjs';
import { runAll } from './runner.mjs';
import apps from './scenarios/apps.mjs';
import appAttacks from './scenarios/app_attacks.mjs';
import authorization from './scenarios/authorization.mjs';
import diagnostics from './scenarios/diagnostics.mjs';
import models from './scenarios/models.mjs';
import questions from './scenarios/questions.mjs';
import resources from './scenarios/resources.mjs';
import runs from './scenarios/runs.mjs';
import shipping from './scenarios/shipping.mjs';
import view from './scenarios/view.mjs';
import watch from './scenarios/watch.mjs';

// The areas in the order the suite has always run them (in one lane, the default); with --jobs 2
// the models' area (60 s, a model in the page on both cores) runs alone at the end.
const areas = { runs, diagnostics, resources, authorization, questions, models, apps, appAttacks, view, watch, shipping };
const scenarios = Object.entries(areas).flatMap(([area, all]) => Object.entries(all).map(([name, run]) => [name, run, area]));
// `--only A|B`: the scenarios whose names contain A or B.
const chosen = scenarios.filter(([name]) => !opt.only || opt.only.split('|').some((part) => name.includes(part)));
if (opt.list) {
  for (const [name] of chosen) console.log(name);
  console.log(`${chosen.length} scenarios`);
  process.exit(0);
}

// Without a browser every scenario fails with that reason; none is left uncounted.
let browser = null;
let noBrowser = null;
try {
  browser = await launchChromium();
} catch (err) {
  noBrowser = `Chromium did not start: ${err.message.split('\n')[0]}`;
}

const failures = await runAll(chosen, {
  browser,
  noBrowser,
  jobs: Number(opt.jobs),
  // The model in the page keeps both cores busy: a scenario beside it would be timed by it.
  alone: Number(opt.jobs) > 1 ? ['models'] : [],
  onFailure: (name, page) =>
    page.screenshot({ path: join(opt.out, `failed-${name.replace(/\W+/g, '-')}.png`), fullPage: true }),
});
await browser?.close();
process.exit(failures || chosen.length === 0 ? 1 : 0);
