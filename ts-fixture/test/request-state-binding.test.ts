/**
 * The verify hook: the SDK codec's checks, then tool and argument binding through the recorded tools/call.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRequestStateCodec, type JSONRPCMessage, type ServerContext } from '@modelcontextprotocol/server';
import { boundRequestStateVerify } from '../src/bound-request-state.js';
import { mintPayload, readPayload } from '../src/continuation-payload.js';
import { argumentsDigest, guardedArguments } from '../src/guarded-arguments.js';
import { ToolCallArguments } from '../src/tool-call-arguments.js';

const KEY = Buffer.from('8cac6b8c4ec375b861c294c1e49f902e5beb661a50b9cb3323c4ae30eb0d7dfc', 'hex');
const TIMES = { now: 1790035200, authorityTtl: 300, replayRetentionTtl: 360 };

function context(id: number): ServerContext {
  return { mcpReq: { id, method: 'tools/call' } } as unknown as ServerContext;
}

function call(id: number, name: string, args: unknown, requestState: unknown): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, requestState } } as JSONRPCMessage;
}

function codec(principal = 'alice') {
  return createRequestStateCodec<unknown>({ key: KEY, ttlSeconds: 600, bind: () => principal });
}

describe('continuation payload', () => {
  test('mints the seed state with integer times and a fresh nonce, plus tool and arguments digest', () => {
    const args = guardedArguments('case-01', 'guarded-01', undefined);
    const first = mintPayload(args, TIMES);
    assert.deepEqual(Object.keys(first.state), [
      'v',
      'operation_id',
      'nonce',
      'issued_at',
      'authority_expires_at',
      'replay_expires_at',
    ]);
    assert.equal(first.tool, 'create_guarded_issue');
    assert.equal(first.arguments_digest, argumentsDigest(args));
    assert.equal(first.state.issued_at, 1790035200);
    assert.equal(first.state.authority_expires_at, 1790035500);
    assert.equal(first.state.replay_expires_at, 1790035560);
    assert.match(first.state.nonce, /^[0-9a-f]{32}$/);
    assert.notEqual(mintPayload(args, TIMES).state.nonce, first.state.nonce);
  });

  test('an unexpected payload shape is refused', () => {
    assert.throws(() => readPayload({ step: 'x' }));
    assert.throws(() => readPayload('x'));
    assert.throws(() => readPayload({ tool: 't', arguments_digest: 'd', state: [] }));
  });
});

describe('the verify hook', () => {
  const args = { operation_id: 'case-01', title: 'guarded-01' };

  async function minted(principal = 'alice'): Promise<string> {
    return codec(principal).mint(mintPayload(guardedArguments('case-01', 'guarded-01', undefined), TIMES), context(0));
  }

  test('accepts the minting tool with the same arguments and returns the payload', async () => {
    const calls = new ToolCallArguments();
    const token = await minted();
    calls.observe(call(5, 'create_guarded_issue', { ...args, mode: 'atomic' }, token));
    const payload = await boundRequestStateVerify(codec(), calls)(token, context(5));
    assert.equal(payload.state.operation_id, 'case-01');
    assert.equal(calls.size, 0);
  });

  test('refuses changed arguments, another tool, an unrecorded call, another principal and a tampered token', async () => {
    const token = await minted();
    const refusals: ReadonlyArray<[string, JSONRPCMessage | null, string, RegExp]> = [
      ['changed title', call(1, 'create_guarded_issue', { ...args, title: 'changed' }, token), token, /other arguments/],
      ['changed mode', call(1, 'create_guarded_issue', { ...args, mode: 'partial' }, token), token, /other arguments/],
      ['other tool', call(1, 'get_operation_status', { operation_id: 'case-01' }, token), token, /another tool/],
      ['missing arguments', call(1, 'create_guarded_issue', undefined, token), token, /cannot be digested/],
      ['nothing recorded', null, token, /no recorded tool call/],
      ['tampered', call(1, 'create_guarded_issue', args, token), `${token.slice(0, 20)}A${token.slice(21)}`, /: (mac|malformed)$/],
    ];
    for (const [name, message, state, reason] of refusals) {
      const calls = new ToolCallArguments();
      if (message !== null) calls.observe(message);
      await assert.rejects(boundRequestStateVerify(codec(), calls)(state, context(1)), reason, name);
    }
    const calls = new ToolCallArguments();
    calls.observe(call(1, 'create_guarded_issue', args, token));
    await assert.rejects(boundRequestStateVerify(codec('bob'), calls)(token, context(1)), /bind/);
  });

  test('refuses every other spelling of a valid token: whitespace, padding, spare bits, standard alphabet', async () => {
    const token = await minted();
    const mac = token.slice(token.lastIndexOf('.') + 1);
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const spareBits = token.slice(0, -1) + last[last.indexOf(token.slice(-1)) ^ 1];
    const spellings = [`${token}\n`, `${token}=`, ` ${token}`, `${token.slice(0, -5)} ${token.slice(-5)}`, spareBits,
      token.slice(0, -mac.length) + mac.replaceAll('-', '+').replaceAll('_', '/')].filter((s) => s !== token);
    assert.ok(spellings.length >= 5);
    for (const spelling of spellings) {
      const calls = new ToolCallArguments();
      calls.observe(call(1, 'create_guarded_issue', args, spelling));
      await assert.rejects(boundRequestStateVerify(codec(), calls)(spelling, context(1)), /canonical/, JSON.stringify(spelling));
      assert.equal(calls.size, 0);
    }
  });

  test('an id in flight twice is ambiguous and verifies as nothing', async () => {
    const token = await minted();
    const calls = new ToolCallArguments();
    calls.observe(call(3, 'create_guarded_issue', args, token));
    calls.observe(call(3, 'create_guarded_issue', args, token));
    await assert.rejects(boundRequestStateVerify(codec(), calls)(token, context(3)), /no recorded tool call/);
  });

  test('only tools/call requests with a string requestState are recorded, and an answer forgets them', () => {
    const calls = new ToolCallArguments();
    calls.observe(call(1, 'create_guarded_issue', args, undefined));
    calls.observe(call(2, 'create_guarded_issue', args, 123));
    calls.observe({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { requestState: 'v1.a.b' } } as JSONRPCMessage);
    assert.equal(calls.size, 0);
    calls.observe(call(4, 'nope', {}, 'v1.a.b'));
    assert.equal(calls.size, 1);
    calls.settle({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'Tool nope not found' } } as JSONRPCMessage);
    assert.equal(calls.size, 0);
  });
});
