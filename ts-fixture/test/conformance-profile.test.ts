/**
 * The conformance profile (`dist/server.js --http 0 --conformance`) as a child process on real loopback sockets: off
 * by default, the switch and its settings, the principal with and without a tokens file, a round trip through every
 * multi-round fixture, and every way a fixture's requestState must be refused (-32602, the server serving on).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { HttpServerProcess } from './http-server-process.js';
import { serverEnvironment } from './server-environment.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER = resolve(HERE, '..', '..', 'dist', 'server.js');
const ALICE = 'alice-token-0123456789abcdef0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef0123456789abcdef00';
const EVERY_CAPABILITY = { elicitation: { form: {} }, sampling: {}, roots: {} };
const REFUSED = { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } };

const ELICIT_NAME = { action: 'accept', content: { name: 'Alice' } };
const CONFIRM = { action: 'accept', content: { ok: true } };
const SAMPLED = (text: string) => ({ role: 'assistant', content: { type: 'text', text }, model: 'm', stopReason: 'endTurn' });
const ROOTS = { roots: [{ uri: 'file:///work/root', name: 'root' }] };

let dir: string;
let serial = 0;

function environment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return serverEnvironment({
    WIRE_SERVER_DB: join(dir, `store-${++serial}.sqlite3`),
    WIRE_BACKEND_ID: 'sqlite:conformance-profile',
  }, extra);
}

type Reply = Record<string, any>;

class Fixture extends HttpServerProcess {
  constructor(args: string[], env: NodeJS.ProcessEnv) {
    super(SERVER, args, env);
  }

  async post(method: string, params: Record<string, unknown>, token?: string, capabilities: object = EVERY_CAPABILITY) {
    return this.send(method, params, token, {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    });
  }

  async rpc(method: string, params: Record<string, unknown>, token?: string, capabilities?: object): Promise<Reply> {
    const response = await this.post(method, params, token, capabilities);
    assert.equal(response.status, 200);
    return (await response.json()) as Reply;
  }

  tool(name: string, more: Record<string, unknown> = {}, token?: string): Promise<Reply> {
    return this.rpc('tools/call', { name, arguments: {}, ...more }, token);
  }

  /** Round one of a fixture: its inputRequests and sealed state. */
  async first(name: string, token?: string): Promise<{ inputRequests: Reply; requestState: string }> {
    const reply = await this.tool(name, {}, token);
    assert.equal(reply['result']?.['resultType'], 'input_required', JSON.stringify(reply));
    assert.equal(typeof reply['result']['requestState'], 'string');
    return reply['result'];
  }
}

function text(reply: Reply): string {
  assert.equal(reply['result']?.['resultType'], 'complete', JSON.stringify(reply));
  return reply['result']['content'][0]['text'];
}

function run(args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [SERVER, ...args], { env, encoding: 'utf8', timeout: 20_000 });
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ts-conformance-'));
  writeFileSync(join(dir, 'tokens.json'), JSON.stringify({ alice: ALICE, bob: BOB }));
});

after(() => rmSync(dir, { recursive: true, force: true }));

describe('the switch', () => {
  test('off by default: no fixture is listed and a bearer token is still required', async () => {
    const fixture = new Fixture(['--http', '0'], environment({ WIRE_BEARER_TOKENS_FILE: join(dir, 'tokens.json') }));
    try {
      const names = (await fixture.rpc('tools/list', {}, ALICE))['result']['tools'].map((t: { name: string }) => t.name);
      assert.deepEqual(names.sort(), ['create_guarded_issue', 'get_operation_status']);
      assert.equal(names.some((name: string) => name.startsWith('test_')), false);
      assert.equal((await fixture.post('tools/list', {})).status, 401);
      assert.doesNotMatch(fixture.stderr, /conformance/);
    } finally {
      assert.equal(await fixture.stop(), 0);
    }
  });

  test('--conformance without --http is one line and exit 2', () => {
    for (const args of [['--conformance'], ['0', '--conformance']]) {
      const result = run(args, environment());
      assert.equal(result.status, 2);
      assert.equal(result.stderr, '--conformance needs --http\n');
      assert.equal(result.stdout, '');
    }
  });

  test('a WIRE_CONFORMANCE_STATE_TTL that is not a positive whole number of seconds is one line and exit 2', () => {
    for (const ttl of ['0', '-5', '1.5', 'sixty']) {
      const result = run(['--http', '0', '--conformance'], environment({ WIRE_CONFORMANCE_STATE_TTL: ttl }));
      assert.equal(result.status, 2, ttl);
      assert.match(result.stderr, /^WIRE_CONFORMANCE_STATE_TTL [^\n]+\n$/, ttl);
    }
  });
});

describe('the profile without a tokens file', () => {
  let fixture: Fixture;
  before(async () => {
    fixture = new Fixture(['--http', '0', '--conformance'], environment());
    await fixture.url;
  });
  after(async () => assert.equal(await fixture.stop(), 0));

  test('serves without a token as principal conformance, says so once, and lists the fixtures beside the guarded tools', async () => {
    assert.equal(fixture.stderr.match(/no bearer token is asked for; every request is principal "conformance"/g)?.length, 1);
    const names = (await fixture.rpc('tools/list', {}))['result']['tools'].map((t: { name: string }) => t.name);
    for (const name of ['create_guarded_issue', 'get_operation_status', 'test_simple_text', 'test_input_required_result_request_state']) {
      assert.ok(names.includes(name), name);
    }
    const prompts = (await fixture.rpc('prompts/list', {}))['result']['prompts'].map((p: { name: string }) => p.name);
    assert.ok(prompts.includes('test_input_required_result_prompt'));
  });

  test('every multi-round fixture completes a round trip', async () => {
    const elicitation = await fixture.tool('test_input_required_result_elicitation');
    assert.equal(elicitation['result']['requestState'], undefined, 'the stateless fixture issues no state');
    assert.equal(text(await fixture.tool('test_input_required_result_elicitation', { inputResponses: { user_name: ELICIT_NAME } })), 'Hello, Alice!');

    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['test_input_required_result_sampling', { capital_question: SAMPLED('Paris') }, /Paris/],
      ['test_input_required_result_list_roots', { client_roots: ROOTS }, /file:\/\/\/work\/root/],
      ['test_input_required_result_request_state', { confirm: CONFIRM }, /state-ok/],
      [
        'test_input_required_result_multiple_inputs',
        { user_name: ELICIT_NAME, greeting: SAMPLED('Hi'), client_roots: ROOTS },
        /name=Alice; greeting=Hi/,
      ],
      ['test_input_required_result_tampered_state', { confirm: CONFIRM }, /verified/],
      ['test_input_required_result_capabilities', { user_name: ELICIT_NAME, greeting: SAMPLED('Hi'), client_roots: ROOTS }, /Answered/],
    ];
    for (const [name, responses, expected] of cases) {
      const { inputRequests, requestState } = await fixture.first(name);
      assert.deepEqual(Object.keys(inputRequests).sort(), Object.keys(responses).sort(), name);
      assert.match(text(await fixture.tool(name, { inputResponses: responses, requestState })), expected, name);
    }

    const round1 = await fixture.first('test_input_required_result_multi_round');
    const round2 = await fixture.tool('test_input_required_result_multi_round', {
      inputResponses: { step1: ELICIT_NAME },
      requestState: round1.requestState,
    });
    assert.deepEqual(Object.keys(round2['result']['inputRequests']), ['step2']);
    assert.notEqual(round2['result']['requestState'], round1.requestState);
    const round3 = await fixture.tool('test_input_required_result_multi_round', {
      inputResponses: { step2: { action: 'accept', content: { color: 'blue' } } },
      requestState: round2['result']['requestState'],
    });
    assert.equal(text(round3), 'Alice likes blue.');

    const prompt = (await fixture.rpc('prompts/get', { name: 'test_input_required_result_prompt' }))['result'];
    assert.equal(prompt['resultType'], 'input_required');
    const messages = await fixture.rpc('prompts/get', {
      name: 'test_input_required_result_prompt',
      inputResponses: { user_context: { action: 'accept', content: { context: 'tests' } } },
      requestState: prompt['requestState'],
    });
    assert.equal(messages['result']['messages'][0]['content']['text'], 'Use this context: tests');
  });

  test('the capabilities fixture asks only for what the request declares', async () => {
    const reply = await fixture.rpc('tools/call', { name: 'test_input_required_result_capabilities', arguments: {} }, undefined, { sampling: {} });
    assert.deepEqual(Object.keys(reply['result']['inputRequests']), ['greeting']);
  });

  test('replaying a completed continuation gives the same result', async () => {
    const { requestState } = await fixture.first('test_input_required_result_request_state');
    const continuation = { inputResponses: { confirm: CONFIRM }, requestState };
    const once = await fixture.tool('test_input_required_result_request_state', continuation);
    const again = await fixture.tool('test_input_required_result_request_state', continuation);
    assert.deepEqual(again['result'], once['result']);
  });

  test('every refused state is -32602 before any handler, and the server keeps serving', async () => {
    const name = 'test_input_required_result_request_state';
    const { requestState } = await fixture.first(name);
    const [prefix, body, mac] = requestState.split('.') as [string, string, string];
    const flipped = (segment: string, at: number) =>
      segment.slice(0, at) + (segment[at] === 'A' ? 'B' : 'A') + segment.slice(at + 1);
    const other = await fixture.first('test_input_required_result_tampered_state');
    const attempts: Array<[string, Record<string, unknown>, string?]> = [
      ['a flipped MAC', { requestState: `${prefix}.${body}.${flipped(mac, 5)}` }],
      ['a flipped body', { requestState: `${prefix}.${flipped(body, 12)}.${mac}` }],
      ['a truncated state', { requestState: requestState.slice(0, -4) }],
      ['a padded spelling', { requestState: `${requestState}=` }],
      ['a suffix', { requestState: `${requestState}-TAMPERED` }],
      ['a state of another tool', { requestState: other.requestState }],
      ['other arguments', { requestState, arguments: { extra: 1 } }],
      ['a non-string state', { requestState: 12345 }],
      ['a 1 MiB state', { requestState: 'v1.' + 'A'.repeat(1024 * 1024) + '.' + mac }],
      ['no state at all', {}],
      ['a state sent to the stateless fixture', { requestState }, 'test_input_required_result_elicitation'],
    ];
    for (const [what, change, target] of attempts) {
      const reply = await fixture.tool(target ?? name, { inputResponses: { confirm: CONFIRM }, ...change });
      assert.deepEqual(reply['error'], REFUSED, what);
      assert.equal(reply['result'], undefined, what);
    }
    const guarded = await fixture.tool('create_guarded_issue', {
      arguments: { operation_id: 'op-x', title: 't' },
      inputResponses: { body: { action: 'accept', content: { body: 'b' } } },
      requestState,
    });
    assert.deepEqual(guarded['error'], REFUSED, 'a fixture state offered to a guarded tool');
    assert.match(text(await fixture.tool(name, { inputResponses: { confirm: CONFIRM }, requestState })), /state-ok/);
  });
});

describe('the profile with a tokens file', () => {
  test('requires a bearer token and binds a state to its principal', async () => {
    const fixture = new Fixture(['--http', '0', '--conformance'], environment({ WIRE_BEARER_TOKENS_FILE: join(dir, 'tokens.json') }));
    try {
      assert.equal((await fixture.post('tools/list', {})).status, 401);
      const { requestState } = await fixture.first('test_input_required_result_request_state', ALICE);
      const continuation = { inputResponses: { confirm: CONFIRM }, requestState };
      assert.deepEqual((await fixture.tool('test_input_required_result_request_state', continuation, BOB))['error'], REFUSED);
      assert.match(text(await fixture.tool('test_input_required_result_request_state', continuation, ALICE)), /state-ok/);
      assert.doesNotMatch(fixture.stderr, /principal "conformance"/);
      assert.doesNotMatch(fixture.stderr, new RegExp(`${ALICE}|${BOB}`));
    } finally {
      assert.equal(await fixture.stop(), 0);
    }
  });
});

describe('expiry on the real clock', () => {
  test('a state older than WIRE_CONFORMANCE_STATE_TTL is refused, although the injected clock stands still', async () => {
    const fixture = new Fixture(['--http', '0', '--conformance'], environment({ WIRE_CONFORMANCE_STATE_TTL: '1' }));
    try {
      const { requestState } = await fixture.first('test_input_required_result_request_state');
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const reply = await fixture.tool('test_input_required_result_request_state', { inputResponses: { confirm: CONFIRM }, requestState });
      assert.deepEqual(reply['error'], REFUSED);
      const fresh = await fixture.first('test_input_required_result_request_state');
      assert.match(
        text(await fixture.tool('test_input_required_result_request_state', { inputResponses: { confirm: CONFIRM }, requestState: fresh.requestState })),
        /state-ok/,
      );
    } finally {
      assert.equal(await fixture.stop(), 0);
    }
  });
});
