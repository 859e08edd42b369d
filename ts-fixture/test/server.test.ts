/**
 * The compiled fixture (dist/server.js) as a process, driven with raw JSON-RPC lines: start-up configuration, the
 * 2026-07-28 era without initialize, both rounds, and the argument binding of requestState. The full case matrix is
 * in the Java process tests (matrix/…/typescript/*IT).
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadRuleTable } from './rule-table.js';
import { serverEnvironment, TEST_STATE_KEY } from './server-environment.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER = resolve(HERE, '..', '..', 'dist', 'server.js');
const JAR = resolve(HERE, '..', '..', '..', 'bridge', 'target', 'bridge.jar');
const STATE_KEY = TEST_STATE_KEY;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'node-test', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

let dir: string;

function environment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return serverEnvironment({
    WIRE_SERVER_DB: join(dir, 'store.sqlite3'),
    WIRE_BACKEND_ID: 'sqlite:guarded-matrix',
    WIRE_PRINCIPAL: 'alice',
  }, extra);
}

class Server {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #closed: Promise<number | null>;
  readonly #lines: string[] = [];
  readonly #waiters: Array<() => void> = [];
  #id = 0;

  constructor(env: NodeJS.ProcessEnv, args: string[] = []) {
    this.#child = spawn(process.execPath, [SERVER, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#closed = new Promise((r) => this.#child.on('close', (code) => r(code)));
    this.#child.stderr.resume();
    createInterface({ input: this.#child.stdout }).on('line', (line) => {
      this.#lines.push(line);
      this.#waiters.splice(0).forEach((w) => w());
    });
  }

  async request(method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
    const id = ++this.#id;
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } })}\n`);
    const deadline = Date.now() + 20_000;
    while (this.#lines.length === 0) {
      if (Date.now() > deadline) throw new Error(`no reply to ${method}`);
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 100);
      });
    }
    const reply = JSON.parse(this.#lines.shift()!);
    assert.equal(reply.id, id);
    return reply;
  }

  call(args: Record<string, unknown>, inputResponses?: unknown, requestState?: unknown, name = 'create_guarded_issue'): Promise<Record<string, any>> {
    return this.request('tools/call', {
      name,
      arguments: args,
      ...(inputResponses !== undefined && { inputResponses }),
      ...(requestState !== undefined && { requestState }),
    });
  }

  end(): Promise<number | null> {
    this.#child.stdin.end();
    return this.#closed;
  }
}

const ACCEPTED = { body: { action: 'accept', content: { body: 'alpha' } } };

describe('guarded fixture process', () => {
  before(() => {
    assert.ok(existsSync(SERVER), `${SERVER} is missing; run npm run build`);
    assert.ok(existsSync(JAR), `${JAR} is missing: build the bridge first (mvn -pl bridge package)`);
    dir = mkdtempSync(join(tmpdir(), 'ts-fixture-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('serves 2026-07-28 without initialize: tools/list, both rounds, replay, argument binding', async () => {
    const server = new Server(environment());
    try {
      const list = await server.request('tools/list', {});
      assert.deepEqual(
        list['result']['tools'].map((t: { name: string }) => t.name),
        ['create_guarded_issue', 'get_operation_status'],
      );
      // the compiled fixture lists the shared table's tools (dist/tools.json), member for member
      assert.deepEqual(list['result']['tools'], loadRuleTable('tools.json').root['guarded']);
      assert.deepEqual(list['result']['_meta']['io.modelcontextprotocol/serverInfo'], {
        name: 'continuation-replay-ts-fixture',
        version: '0.1.0',
      });

      const args = { operation_id: 'node-01', title: 'guarded-01' };
      const first = await server.call(args);
      assert.equal(first['result']['resultType'], 'input_required');
      assert.equal(first['result']['inputRequests']['body']['params']['message'], 'Body for guarded-01?');
      const token: string = first['result']['requestState'];

      const changed = await server.call({ ...args, title: 'changed' }, ACCEPTED, token);
      assert.deepEqual(changed['error'], {
        code: -32602,
        message: 'Invalid or expired requestState',
        data: { reason: 'invalid_request_state' },
      });

      const second = await server.call(args, ACCEPTED, token);
      assert.deepEqual(second['result']['structuredContent'], {
        operationId: 'node-01',
        effectId: 1,
        result: 'created 1',
        replayed: false,
        state: 'applied',
      });
      const again = await server.call({ ...args, mode: 'atomic' }, ACCEPTED, token);
      assert.equal(again['result']['structuredContent']['replayed'], true);
      assert.equal(await server.end(), 0);
    } finally {
      await server.end();
    }
  });

  test('--unguarded: the control lists create_issue, binds its state to the title, and writes again on every continuation', async () => {
    const server = new Server(environment({ WIRE_SERVER_DB: join(dir, 'control.sqlite3') }), ['--unguarded']);
    try {
      const list = await server.request('tools/list', {});
      assert.deepEqual(list['result']['tools'], loadRuleTable('tools.json').root['unguarded']);
      const args = { title: 'control-01' };
      const first = await server.call(args, undefined, undefined, 'create_issue');
      assert.equal(first['result']['resultType'], 'input_required');
      assert.equal(first['result']['inputRequests']['body']['params']['message'], 'Body for control-01?');
      const token: string = first['result']['requestState'];
      const changed = await server.call({ title: 'changed' }, ACCEPTED, token, 'create_issue');
      assert.equal(changed['error']['code'], -32602);
      const guardedName = await server.call({ ...args, operation_id: 'x' }, ACCEPTED, token);
      assert.equal(guardedName['error']['code'], -32602, 'the guarded tool is not served, whatever the state');
      const refused = await server.call(args, { body: { action: 'decline' } }, token, 'create_issue');
      assert.equal(refused['result']['isError'], true);
      // The same continuation twice: two issues, the duplicate the guard exists to prevent.
      const once = await server.call(args, ACCEPTED, token, 'create_issue');
      assert.deepEqual(once['result']['structuredContent'], { issueId: 1, result: 'created 1' });
      const twice = await server.call(args, ACCEPTED, token, 'create_issue');
      assert.deepEqual(twice['result']['structuredContent'], { issueId: 2, result: 'created 2' });
      assert.equal(await server.end(), 0);
    } finally {
      await server.end();
    }
  });

  test('a bad command line: one stderr line, exit 2, nothing on stdout', () => {
    const cases: ReadonlyArray<[string[], string]> = [
      [['--unguarded', '--http', '0', '--conformance'], '--unguarded serves the control, which has no conformance fixtures: use one or the other'],
      [['--conformance'], '--conformance needs --http'],
      [['--guarded'], 'unknown argument "--guarded": expected --http PORT, --conformance or --unguarded'],
    ];
    for (const [args, message] of cases) {
      const run = spawnSync(process.execPath, [SERVER, ...args], { env: environment(), input: '', encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.status, 2, message);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, `${message}\n`);
    }
  });

  test('a bad configuration: one stderr line naming the variable, exit 2, and no secret echoed', () => {
    const cases: ReadonlyArray<[Record<string, string | undefined>, string]> = [
      [{ WIRE_PRINCIPAL: undefined }, 'WIRE_PRINCIPAL is required'],
      [{ WIRE_STATE_KEY_HEX: STATE_KEY.slice(0, 62) }, 'WIRE_STATE_KEY_HEX must contain at least 32 bytes'],
      [{ WIRE_CLOCK_EPOCH: '1790035200.5' }, 'WIRE_CLOCK_EPOCH must be a whole number of seconds'],
      [{ WIRE_FAULT: 'explode' }, 'WIRE_FAULT must be one of [drop-after-commit, exit-after-ledger-insert, exit-after-issue-insert, exit-after-partial-first-commit]'],
      [{ LAB_BRIDGE_COMMAND: 'java -jar x' }, 'LAB_BRIDGE_COMMAND must be a JSON array of strings'],
    ];
    for (const [extra, message] of cases) {
      const run = spawnSync(process.execPath, [SERVER], { env: environment(extra), input: '', encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.status, 2, message);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, `${message}\n`);
      assert.ok(!run.stderr.includes(STATE_KEY.slice(0, 20)));
    }
  });
});
