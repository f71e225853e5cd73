// The runner without a browser: a fake one whose pages do nothing (node --test e2e/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAll, servers, unavailable } from './runner.mjs';

const fakeBrowser = () => ({
  async newContext() {
    return { async newPage() { return { on() {} }; }, async close() {} };
  },
});

const recorder = () => {
  const lines = [];
  return { lines, log: { log: (l) => lines.push(l), error: (l) => lines.push(`stderr: ${l}`) } };
};

test('a server that did not start fails only the scenarios that need it, saying why', async () => {
  const need = servers({ base: 'http://127.0.0.1:1' }, unavailable(['llama-base=llama-server crashed (signal 11)']));
  const ran = [];
  const chosen = [
    ['plain run', async () => { need('base'); ran.push('plain run'); }],
    ['a real model', async () => { need('llama-base'); ran.push('a real model'); }],
    ['the export', async () => { need('base'); ran.push('the export'); }],
  ];
  const { lines, log } = recorder();
  const failures = await runAll(chosen, { browser: fakeBrowser(), log });
  assert.equal(failures, 1);
  assert.deepEqual(ran, ['plain run', 'the export']);
  const why = 'FAIL a real model: needs --llama-base, which the test command could not start: llama-server crashed (signal 11)';
  assert.ok(lines.includes(`stderr: ${why}`));
  // Recapped on stdout before the count, where the test command's report reads it.
  assert.deepEqual(lines.slice(-2), [why, 'e2e: 2 passed, 1 failed']);
});

test('without a browser every scenario fails with that reason and is counted', async () => {
  const { lines, log } = recorder();
  const failures = await runAll([['a', async () => {}], ['b', async () => {}]],
    { browser: null, noBrowser: 'Chromium did not start: no such file', log });
  assert.equal(failures, 2);
  assert.deepEqual(lines, [
    'stderr: FAIL a: Chromium did not start: no such file',
    'stderr: FAIL b: Chromium did not start: no such file',
    'FAIL a: Chromium did not start: no such file',
    'FAIL b: Chromium did not start: no such file',
    'e2e: 0 passed, 2 failed',
  ]);
});

test('an option neither given nor unavailable is named', () => {
  const need = servers({}, unavailable(['faulty']));
  assert.throws(() => need('everything'), /needs --everything URL/);
  assert.throws(() => need('faulty'), /could not start: it did not start/);
});

test('a scenario that fails once and then passes counts as passed and is recapped as flaky', async () => {
  const { lines, log } = recorder();
  let tries = 0;
  const flaky = async () => { tries++; if (tries === 1) throw new Error('timed out waiting for d1-2\nat …'); };
  const failures = await runAll([['sometimes', flaky]], { browser: fakeBrowser(), log });
  assert.equal(failures, 0);
  assert.equal(tries, 2);
  assert.deepEqual(lines.slice(-2), ['FLAKY sometimes: timed out waiting for d1-2', 'e2e: 1 passed, 0 failed']);
});

test('two lanes run areas side by side, the scenarios of one area one after another', async () => {
  const events = [];
  const tick = () => new Promise((r) => setTimeout(r, 5));
  const scenario = (name) => async () => { events.push(`start ${name}`); await tick(); events.push(`end ${name}`); };
  const chosen = [
    ['a1', scenario('a1'), 'a'], ['b1', scenario('b1'), 'b'], ['a2', scenario('a2'), 'a'],
    ['c1', scenario('c1'), 'c'], ['b2', scenario('b2'), 'b'],
  ];
  const { lines, log } = recorder();
  const failures = await runAll(chosen, { browser: fakeBrowser(), jobs: 2, log });
  assert.equal(failures, 0);
  assert.equal(lines.at(-1), 'e2e: 5 passed, 0 failed');
  // Both lanes start at once: the second area begins before the first area's first scenario ends.
  assert.deepEqual(events.slice(0, 2), ['start a1', 'start b1']);
  // Within an area, the next scenario starts only after the one before it ended, in order.
  for (const [first, second] of [['a1', 'a2'], ['b1', 'b2']]) {
    assert.ok(events.indexOf(`end ${first}`) < events.indexOf(`start ${second}`), `${first} then ${second}: ${events}`);
  }
  assert.equal(events.length, 10);
});

test('a number of lanes that is not a positive number runs one lane, and every scenario', async () => {
  const ran = [];
  const chosen = [['x', async () => { ran.push('x'); }, 'a'], ['y', async () => { ran.push('y'); }, 'b']];
  const { lines, log } = recorder();
  await runAll(chosen, { browser: fakeBrowser(), jobs: Number('two'), log });
  assert.deepEqual(ran, ['x', 'y']);
  assert.equal(lines.at(-1), 'e2e: 2 passed, 0 failed');
});

test('an area run alone starts after every other area has ended, and nothing runs beside it', async () => {
  const events = [];
  const tick = () => new Promise((r) => setTimeout(r, 5));
  const scenario = (name) => async () => { events.push(`start ${name}`); await tick(); events.push(`end ${name}`); };
  const chosen = [['m1', scenario('m1'), 'model'], ['a1', scenario('a1'), 'a'], ['b1', scenario('b1'), 'b'], ['m2', scenario('m2'), 'model']];
  const { lines, log } = recorder();
  await runAll(chosen, { browser: fakeBrowser(), jobs: 2, alone: ['model'], log });
  assert.deepEqual(events.slice(4), ['start m1', 'end m1', 'start m2', 'end m2']);
  assert.equal(lines.at(-1), 'e2e: 4 passed, 0 failed');
});

test('a retry runs with nothing beside it: the other lane finishes its scenario and waits', async () => {
  const events = [];
  const tick = () => new Promise((r) => setTimeout(r, 5));
  let tries = 0;
  const flaky = async () => {
    events.push(`start f${++tries}`);
    await tick();
    events.push(`end f${tries}`);
    if (tries === 1) throw new Error('timed out');
  };
  const slow = (name) => async () => { events.push(`start ${name}`); await tick(); await tick(); events.push(`end ${name}`); };
  const chosen = [['f', flaky, 'a'], ['b1', slow('b1'), 'b'], ['b2', slow('b2'), 'b'], ['b3', slow('b3'), 'b']];
  const { lines, log } = recorder();
  await runAll(chosen, { browser: fakeBrowser(), jobs: 2, log });
  const retry = events.indexOf('start f2');
  const running = (at) => events.slice(0, at).filter((e) => e.startsWith('start')).length
    - events.slice(0, at).filter((e) => e.startsWith('end')).length;
  assert.equal(running(retry), 0, `something ran beside the retry: ${events}`);
  assert.equal(events[retry + 1], 'end f2', `something started during the retry: ${events}`);
  assert.equal(events.filter((e) => e.startsWith('start b')).length, 3);
  assert.deepEqual(lines.slice(-2), ['FLAKY f: timed out', 'e2e: 4 passed, 0 failed']);
});

test('two lanes failing at once retry one after the other, each alone, and every scenario ends', async () => {
  const events = [];
  const tick = () => new Promise((r) => setTimeout(r, 5));
  const tries = {};
  const flaky = (name) => async () => {
    tries[name] = (tries[name] ?? 0) + 1;
    events.push(`start ${name}${tries[name]}`);
    await tick();
    events.push(`end ${name}${tries[name]}`);
    if (tries[name] === 1) throw new Error('busy');
  };
  const chosen = [['x', flaky('x'), 'a'], ['y', flaky('y'), 'b'], ['z', flaky('z'), 'c']];
  const { lines, log } = recorder();
  const failures = await runAll(chosen, { browser: fakeBrowser(), jobs: 2, log });
  assert.equal(failures, 0);
  for (const name of ['x', 'y', 'z']) {
    const at = events.indexOf(`start ${name}2`);
    assert.equal(events[at + 1], `end ${name}2`, `${name}'s retry had company: ${events}`);
  }
  assert.equal(lines.at(-1), 'e2e: 3 passed, 0 failed');
});
