/**
 * Scripts the driver cannot run: exit 2, exactly one stderr line naming the step and the problem, no record, and
 * nothing started, even for the valid steps before the bad one (the whole script is checked first).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DRIVER, runDriver } from './harness.js';

let dir: string;
let marker: string;

/** A server whose only job is to leave a file behind if anything ever starts it. */
function markerServer(): { command: string[] } {
  return { command: [process.execPath, '-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`] };
}

function script(steps: unknown[], top: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 'client-script/1',
    servers: { s: markerServer() },
    request_timeout_ms: 5000,
    version_mode: 'pin',
    steps,
    ...top,
  };
}

const CONNECT = { op: 'connect', connection: 'a', server: 's' };
const ARGS = { operation_id: 'op-1', title: 't', mode: 'atomic' };
const ONCE = { op: 'call_once', connection: 'a', tool: 'create_guarded_issue', arguments: ARGS };

const CASES: Array<[string, unknown, string]> = [
  ['an unknown op', script([CONNECT, { op: 'call_twice', connection: 'a' }]), 'script error: step 1: unknown op "call_twice"'],
  ['a step without op', script([CONNECT, { connection: 'a' }]), 'script error: step 1: op is required'],
  [
    'a missing field',
    script([CONNECT, { op: 'call', connection: 'a', arguments: ARGS }]),
    'script error: step 1 (call): tool is required',
  ],
  [
    'a field of the wrong type',
    script([CONNECT, { op: 'call', connection: 'a', tool: 'x', arguments: [] }]),
    'script error: step 1 (call): arguments must be an object',
  ],
  [
    'an unknown member (a misspelt option)',
    script([CONNECT, { ...ONCE, save_sate: 's1' }]),
    'script error: step 1 (call_once): unknown member "save_sate"',
  ],
  [
    'a connection used before connect',
    script([CONNECT, { op: 'list_tools', connection: 'b' }]),
    'script error: step 1 (list_tools): connection "b" is used before it is connected',
  ],
  [
    'a connection used after close',
    script([CONNECT, { op: 'close', connection: 'a' }, { op: 'status', connection: 'a', operation_id: 'x' }]),
    'script error: step 2 (status): connection "a" is used before it is connected',
  ],
  [
    'a connection connected twice',
    script([CONNECT, CONNECT]),
    'script error: step 1 (connect): connection "a" is already connected',
  ],
  [
    'an unknown server',
    script([CONNECT, { op: 'connect', connection: 'b', server: 'nowhere' }]),
    'script error: step 1 (connect): unknown server "nowhere"',
  ],
  [
    'a state used before it is saved',
    script([CONNECT, { ...ONCE, state: 's1' }, { ...ONCE, save_state: 's1' }]),
    'script error: step 1 (call_once): state "s1" is used before it is saved',
  ],
  [
    'a state saved by a sibling in the same parallel step',
    script([
      CONNECT,
      { op: 'connect', connection: 'b', server: 's' },
      { op: 'parallel', steps: [{ ...ONCE, save_state: 's1' }, { ...ONCE, connection: 'b', state: 's1' }] },
    ]),
    'script error: step 2.1 (call_once): state "s1" is used before it is saved',
  ],
  [
    'two inner steps on one connection',
    script([CONNECT, { op: 'parallel', steps: [ONCE, ONCE] }]),
    'script error: step 1.1 (call_once): connection "a" is already used by step 1.0 of this parallel step',
  ],
  [
    'a parallel step inside a parallel step',
    script([CONNECT, { op: 'parallel', steps: [{ op: 'parallel', steps: [ONCE] }] }]),
    'script error: step 1.0 (parallel): a parallel step cannot contain another one',
  ],
  [
    'a tamper without a state',
    script([CONNECT, { ...ONCE, state_transform: 'tamper' }]),
    'script error: step 1 (call_once): state_transform needs a state',
  ],
  [
    'an unknown ts_api',
    script([CONNECT, { ...ONCE, ts_api: 'fetch' }]),
    'script error: step 1 (call_once): ts_api must be one of "callTool", "request"',
  ],
  [
    'a bad format tag',
    script([CONNECT], { format: 'client-script/2' }),
    'script error: format must be "client-script/1" (got "client-script/2")',
  ],
  [
    'an unknown version mode',
    script([CONNECT], { version_mode: 'legacy' }),
    'script error: version_mode must be one of "pin", "auto", "default"',
  ],
  [
    'a timeout that is not a whole number of milliseconds',
    script([CONNECT], { request_timeout_ms: 2.5 }),
    'script error: request_timeout_ms must be null or a positive whole number of milliseconds',
  ],
  [
    'a server without a command',
    script([CONNECT], { servers: { s: { env: {} } } }),
    'script error: servers.s: command must be a non-empty array of strings',
  ],
  [
    'an env value that is not a string',
    script([CONNECT], { servers: { s: { ...markerServer(), env: { WIRE_CLOCK_EPOCH: 1790035200 } } } }),
    'script error: servers.s: env.WIRE_CLOCK_EPOCH must be a string',
  ],
  ['text that is not JSON', '{"format": ', 'script error: not JSON ('],
];

describe('script check', () => {
  before(() => {
    assert.ok(existsSync(DRIVER), `${DRIVER} is missing: run npm run build in ts-client`);
    dir = mkdtempSync(join(tmpdir(), 'ts-client-check-'));
    marker = join(dir, 'server-started');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [what, bad, line] of CASES) {
    test(`${what}: exit 2, one stderr line, no record, nothing started`, async () => {
      const run = await runDriver(dir, 'bad', bad);
      assert.equal(run.status, 2, run.stderr);
      if (line.endsWith('(')) assert.ok(run.stderr.startsWith(line) && run.stderr.split('\n').length === 2, run.stderr);
      else assert.equal(run.stderr, `${line}\n`);
      assert.equal(run.stdout, '');
      assert.deepEqual(run.records, []);
      assert.ok(!existsSync(marker), 'a server was started for a script that failed its check');
    });
  }

  test('the records file is left as it was when the script is refused', async () => {
    const records = join(dir, 'kept.jsonl');
    writeFileSync(records, '{"earlier":"run"}\n');
    const scriptPath = join(dir, 'refused.json');
    writeFileSync(scriptPath, JSON.stringify(script([{ op: 'nope' }])));
    const run = await runDriver(dir, 'unused', {}, { args: [scriptPath, records] });
    assert.equal(run.status, 2);
    assert.equal(readFileSync(records, 'utf8'), '{"earlier":"run"}\n');
  });

  test('a script that cannot be read, and a wrong argument count: exit 2', async () => {
    const missing = await runDriver(dir, 'unused', {}, { args: [join(dir, 'no-such.json'), join(dir, 'r.jsonl')] });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^script error: cannot read .*no-such\.json \(ENOENT[^\n]*\)\n$/);
    const usage = await runDriver(dir, 'unused', {}, { args: [join(dir, 'only-one.json')] });
    assert.equal(usage.status, 2);
    assert.equal(usage.stderr, 'usage: node dist/driver.js SCRIPT RECORDS\n');
  });

  test('a valid script with no steps: exit 0, no record', async () => {
    const run = await runDriver(dir, 'empty', script([]));
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.records, []);
  });
});
