/**
 * The bridge client against the REAL bridge (bridge/target/bridge.jar, packaged before this module in the Maven
 * reactor), plus small stand-in children for the failures a healthy bridge never shows (garbage, silence).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type BridgeAnswer, BridgeClient, BridgeMachineryFailure } from '../src/bridge-client.js';
import { bridgeEnvironment, defaultBridgeCommand } from '../src/bridge-command.js';

// Compiled to build-test/test/; the repository root is three levels up.
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const JAR = join(REPO_ROOT, 'bridge', 'target', 'bridge.jar');
const NOW = 1790035200;

let dir: string;

function wireEnv(extra: Record<string, string> = {}): Record<string, string> {
  return bridgeEnvironment({
    ...process.env,
    WIRE_SERVER_DB: join(dir, 'store.sqlite3'),
    WIRE_BACKEND_ID: 'sqlite:guarded-matrix',
    WIRE_PRINCIPAL: 'alice',
    WIRE_CLOCK_EPOCH: String(NOW),
    WIRE_FINGERPRINT_KEY_HEX: '8c0aed9f1ff0487480b140421d28d2e49f5a61b8f1837dab9304a6d126f7adba',
    WIRE_STATE_KEY_HEX: 'must-not-reach-the-bridge',
    ...extra,
  });
}

function realBridge(extra: Record<string, string> = {}, stderr = new PassThrough()): BridgeClient {
  return new BridgeClient({ argv: defaultBridgeCommand(REPO_ROOT, process.env), env: wireEnv(extra), stderr, timeoutMs: 30_000 });
}

/** A stand-in bridge: a Node script that reads request lines and reacts as `script` says. */
function standIn(script: string, timeoutMs = 30_000, stderr = new PassThrough()): BridgeClient {
  const program = `const rl = require('node:readline').createInterface({ input: process.stdin });\n${script}`;
  return new BridgeClient({ argv: [process.execPath, '-e', program], env: { PATH: process.env['PATH'] ?? '' }, stderr, timeoutMs });
}

function apply(operationId: string, body: string, title = 'title', mode = 'atomic'): Record<string, unknown> {
  return {
    op: 'apply',
    operation_id: operationId,
    title,
    mode,
    body,
    state: {
      v: 1,
      operation_id: operationId,
      nonce: '661eed17995cd1b77e6812a2fd567408',
      issued_at: NOW,
      authority_expires_at: NOW + 300,
      replay_expires_at: NOW + 360,
    },
    responses: { body: { _meta: null, action: 'accept', content: { body } } },
  };
}

function result(answer: BridgeAnswer): Record<string, unknown> {
  assert.ok(answer.ok, JSON.stringify(answer));
  return answer.result;
}

async function machineryFailure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof BridgeMachineryFailure, String(error));
    return error.message;
  }
  return assert.fail('the call succeeded');
}

describe('bridge client', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bridge-client-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the bridge jar has been built', () => {
    assert.ok(existsSync(JAR), `${JAR} is missing: build it first (mvn -pl bridge package, or the reactor build)`);
  });

  test('one child serves apply, replay, conflict and status in order', async () => {
    const bridge = realBridge();
    try {
      bridge.start();
      const pid = bridge.pid;
      assert.deepEqual(result(await bridge.call(apply('bc-1', 'alpha'))), {
        operationId: 'bc-1',
        effectId: 1,
        result: 'created 1',
        replayed: false,
        state: 'applied',
      });
      assert.equal(result(await bridge.call(apply('bc-1', 'alpha')))['replayed'], true);
      const conflict = await bridge.call(apply('bc-1', 'beta'));
      assert.equal(conflict.ok, false);
      assert.equal(!conflict.ok && conflict.error, 'operation_conflict');
      const invalid = await bridge.call({ op: 'status', operation_id: 'bc-1', principal: 'bob' });
      assert.equal(!invalid.ok && invalid.error, 'invalid_application_request');
      assert.equal(result(await bridge.call({ op: 'status', operation_id: 'bc-1' }))['state'], 'applied');
      assert.equal(bridge.pid, pid);
      assert.equal(bridge.spawned, 1);
    } finally {
      await bridge.close();
    }
  });

  test('concurrent calls are serialised: each gets its own answer', async () => {
    const bridge = realBridge();
    try {
      const ids = Array.from({ length: 25 }, (_, i) => `bc-many-${i}`);
      const answers = await Promise.all(ids.map((id) => bridge.call(apply(id, `body ${id}`))));
      assert.deepEqual(
        answers.map((a) => result(a)['operationId']),
        ids,
      );
      assert.equal(bridge.spawned, 1);
    } finally {
      await bridge.close();
    }
  });

  test('a child that dies mid-call fails that call with its exit status; the next call gets a new child', async () => {
    const bridge = realBridge({ WIRE_FAULT: 'exit-after-ledger-insert' });
    try {
      const message = await machineryFailure(bridge.call(apply('bc-fault', 'alpha')));
      assert.match(message, /^bridge machinery failure: 71; /);
      assert.equal(result(await bridge.call({ op: 'status', operation_id: 'bc-fault' }))['state'], 'unknown');
      assert.equal(bridge.spawned, 2);
      await assert.rejects(bridge.call(apply('bc-fault-2', 'alpha')), /bridge machinery failure: 71; /);
      assert.equal(bridge.spawned, 2);
      result(await bridge.call({ op: 'status', operation_id: 'bc-fault-2' }));
      assert.equal(bridge.spawned, 3);
    } finally {
      await bridge.close();
    }
  });

  test('the partial cut fails the call with 73 and leaves the partial effect to read back', async () => {
    const bridge = realBridge({ WIRE_FAULT: 'exit-after-partial-first-commit' });
    try {
      assert.match(await machineryFailure(bridge.call(apply('bc-partial', 'alpha', 't', 'partial'))), /^bridge machinery failure: 73; /);
      const status = result(await bridge.call({ op: 'status', operation_id: 'bc-partial' }));
      assert.equal(status['state'], 'unknown');
      assert.match(String(status['detail']), /in_progress/);
    } finally {
      await bridge.close();
    }
  });

  test('a child killed while idle is replaced on the next call', async () => {
    const bridge = realBridge();
    try {
      result(await bridge.call({ op: 'status', operation_id: 'x' }));
      const pid = bridge.pid!;
      const exited = bridge.childExit!;
      process.kill(pid, 'SIGKILL');
      // The client's own notice that it saw the death: only after it may the next call be required to use a new child
      // (before it, the call could still be written to the dying one and fail, which is a different case).
      assert.equal(await exited, 'SIGKILL');
      assert.equal(result(await bridge.call({ op: 'status', operation_id: 'x' }))['state'], 'unknown');
      assert.notEqual(bridge.pid, pid);
      assert.equal(bridge.spawned, 2);
    } finally {
      await bridge.close();
    }
  });

  test('the last stderr line (at most 160 characters) is part of the failure', async () => {
    const stderr = new PassThrough();
    const forwarded: Buffer[] = [];
    stderr.on('data', (chunk: Buffer) => forwarded.push(chunk));
    const bridge = standIn(
      `rl.on('line', () => { process.stderr.write('first\\n' + 'x'.repeat(300) + '\\nlast words\\n'); process.exit(3); });`,
      30_000,
      stderr,
    );
    assert.equal(await machineryFailure(bridge.call({ op: 'status', operation_id: 'x' })), 'bridge machinery failure: 3; last words');
    assert.match(Buffer.concat(forwarded).toString(), /first\n/);
    const long = standIn(`rl.on('line', () => { process.stderr.write('y'.repeat(300)); process.exit(4); });`);
    assert.equal(await machineryFailure(long.call({})), `bridge machinery failure: 4; ${'y'.repeat(160)}`);
    await bridge.close();
    await long.close();
  });

  test('an answer that is not a bridge reply is a machinery failure and replaces the child', async () => {
    const bridge = standIn(`rl.on('line', (l) => console.log(JSON.parse(l).bad ? 'not json' : '{"ok":true,"result":{"n":1}}'));`);
    try {
      assert.equal(await machineryFailure(bridge.call({ bad: true })), 'bridge machinery failure: invalid reply; ');
      assert.deepEqual(result(await bridge.call({})), { n: 1 });
      assert.equal(bridge.spawned, 2);
      const odd = standIn(`rl.on('line', () => console.log('{"ok":"yes"}'));`);
      assert.equal(await machineryFailure(odd.call({})), 'bridge machinery failure: invalid reply; ');
      await odd.close();
    } finally {
      await bridge.close();
    }
  });

  test('silence past the timeout kills the child and fails the call', async () => {
    const bridge = standIn(`rl.on('line', (l) => { if (!JSON.parse(l).silent) console.log('{"ok":true,"result":{}}'); });`, 2000);
    try {
      const started = Date.now();
      assert.equal(await machineryFailure(bridge.call({ silent: true })), 'bridge machinery failure: no reply within 2000 ms; ');
      assert.ok(Date.now() - started < 6000);
      assert.deepEqual(result(await bridge.call({})), {});
      assert.equal(bridge.spawned, 2);
    } finally {
      await bridge.close();
    }
  });

  test('a command that cannot be started fails the call with the spawn error', async () => {
    const bridge = new BridgeClient({ argv: ['/nonexistent/java'], env: {}, stderr: new PassThrough() });
    assert.equal(await machineryFailure(bridge.call({})), 'bridge machinery failure: spawn /nonexistent/java ENOENT; ');
    await bridge.close();
  });

  test('the child sees only the allowlisted environment', async () => {
    const client = new BridgeClient({
      argv: [process.execPath, '-e', `require('node:readline').createInterface({ input: process.stdin }).on('line', () => console.log(JSON.stringify({ ok: true, result: { keys: Object.keys(process.env).sort() } })));`],
      env: wireEnv(),
      stderr: new PassThrough(),
    });
    try {
      const keys = result(await client.call({}))['keys'] as string[];
      assert.ok(!keys.includes('WIRE_STATE_KEY_HEX'), keys.join(','));
      assert.ok(keys.includes('WIRE_FINGERPRINT_KEY_HEX'));
      assert.ok(keys.every((k) => /^(PATH|LANG|LC_ALL|TMPDIR|HOME|JAVA_HOME|WIRE_.*)$/.test(k)), keys.join(','));
    } finally {
      await client.close();
    }
  });

  test('close ends the child; later calls fail', async () => {
    const bridge = realBridge();
    await bridge.call({ op: 'status', operation_id: 'x' });
    const pid = bridge.pid!;
    const exited = bridge.childExit!;
    // A long grace, so a slow exit on a loaded machine is still seen as the exit it is, not as the kill after it.
    await bridge.close(30_000);
    // End of input is the bridge's orderly way out: status 0.
    assert.equal(await exited, '0');
    assert.equal(bridge.childExit, undefined);
    assert.throws(() => process.kill(pid, 0));
    assert.equal(await machineryFailure(bridge.call({ op: 'status', operation_id: 'x' })), 'bridge machinery failure: bridge closed; ');
  });
});
