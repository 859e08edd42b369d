/**
 * The strict frame gate (src/strict-frames.ts, src/frame-verdict.ts): every invalid class gets its exact error line
 * and nothing reaches the SDK; valid lines reach it byte for byte.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { judgeFrame, PARSE_ERROR, INVALID_REQUEST } from '../src/frame-verdict.js';
import { topLevelMembers } from '../src/json-members.js';
import { strictFrames, TOO_LARGE } from '../src/strict-frames.js';

const META = '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
const metaWith = (version: string): string => META.replace('"2026-07-28"', version);
const request = (id: string, meta = META, extra = ''): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":${meta}}${extra}}`;

/** Runs lines through the gate; resolves with what reached the SDK and what was written to stdout. */
async function gate(input: Buffer | string, maxLineBytes?: number): Promise<{ sdk: Buffer; out: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const toSdk = strictFrames(stdin, stdout, maxLineBytes === undefined ? {} : { maxLineBytes });
  const sdk: Buffer[] = [];
  const out: Buffer[] = [];
  toSdk.on('data', (c: Buffer) => sdk.push(c));
  stdout.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((r) => toSdk.on('end', r));
  stdin.end(input);
  await ended;
  return { sdk: Buffer.concat(sdk), out: Buffer.concat(out).toString('utf8') };
}

function bytes(...parts: Array<string | number[]>): Buffer {
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
}

describe('invalid frames get one exact error line and never reach the SDK', () => {
  const cases: Array<[string, Buffer | string, string]> = [
    ['invalid UTF-8 inside a string', bytes('{"jsonrpc":"2.0","id":"a","method":"tools/li', [0xc3, 0x28], 'st"}'), PARSE_ERROR],
    ['a lone continuation byte', bytes(request('"a"').slice(0, 20), [0x80], request('"a"').slice(20)), PARSE_ERROR],
    ['an encoded surrogate', bytes(request('"a"').slice(0, 20), [0xed, 0xa0, 0x80], request('"a"').slice(20)), PARSE_ERROR],
    ['not JSON', '{"jsonrpc":"2.0","id":1', PARSE_ERROR],
    ['trailing tokens', `${request('1')}}`, PARSE_ERROR],
    ['a raw NUL inside a string', bytes('{"jsonrpc":"2.0","id":"a","method":"x', [0], '"}'), PARSE_ERROR],
    ['blank', '   ', PARSE_ERROR],
    ['a batch', `[${request('1')}]`, INVALID_REQUEST],
    ['an empty batch', '[]', INVALID_REQUEST],
    ['a scalar', '7', INVALID_REQUEST],
    ['an id of 1e-400', request('1e-400'), INVALID_REQUEST],
    ['an id of 1.0', request('1.0'), INVALID_REQUEST],
    ['an id above 2^53-1', request('9007199254740992'), INVALID_REQUEST],
    ['a null id', request('null'), INVALID_REQUEST],
    ['an object id', request('{"n":1}'), INVALID_REQUEST],
    ['a boolean id', request('true'), INVALID_REQUEST],
    ['jsonrpc 2.0 as a number', request('5').replace('"2.0"', '2.0'), '{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request"}}'],
    ['jsonrpc missing', request('5').replace('"jsonrpc":"2.0",', ''), '{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request"}}'],
    ['a method that is not a string', request('"m"').replace('"tools/list"', '7'), '{"jsonrpc":"2.0","id":"m","error":{"code":-32600,"message":"Invalid Request"}}'],
    ['no method', '{"jsonrpc":"2.0","id":"m"}', '{"jsonrpc":"2.0","id":"m","error":{"code":-32600,"message":"Invalid Request"}}'],
    ['params an array', '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":[1]}', '{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request"}}'],
    ['params null', '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":null}', '{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request"}}'],
    ['_meta a string', request('3', '"2026-07-28"'), '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"params._meta must be an object"}}'],
    ['_meta null', request('3', 'null'), '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"params._meta must be an object"}}'],
    ['version 2026-07-29', request('"v"', metaWith('"2026-07-29"')),
      '{"jsonrpc":"2.0","id":"v","error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-29"}}}'],
    ['version 2025-06-18', request('-4', metaWith('"2025-06-18"')),
      '{"jsonrpc":"2.0","id":-4,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2025-06-18"}}}'],
    ['version with a NUL', request('0', metaWith('"2026-07-28\\u0000"')),
      '{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28\\u0000"}}}'],
  ];
  for (const [name, line, reply] of cases) {
    test(name, async () => {
      const { sdk, out } = await gate(Buffer.concat([Buffer.from(line), Buffer.from('\n')]));
      assert.equal(out, `${reply}\n`);
      assert.equal(sdk.length, 0);
    });
  }
});

describe('invalid notifications are dropped without a reply', () => {
  for (const [name, line] of [
    ['wrong version', `{"jsonrpc":"2.0","method":"notifications/x","params":{"_meta":${metaWith('"2025-06-18"')}}}`],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","method":"notifications/x"}'],
    ['params a string', '{"jsonrpc":"2.0","method":"notifications/x","params":"p"}'],
  ] as const) {
    test(name, async () => {
      const { sdk, out } = await gate(`${line}\n`);
      assert.equal(out, '');
      assert.equal(sdk.length, 0);
    });
  }
});

describe('valid frames reach the SDK byte for byte', () => {
  const valid = [
    request('1'),
    request('"fz-ü-1-\u2028"'),
    request('""'),
    request('-0'),
    request('9007199254740991'),
    request('-9007199254740991'),
    request('"x"', metaWith('20260728')), // a non-string version: the SDK's own -32602
    request('"x"', '{}'), // no version: the SDK's own -32602
    `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"n","arguments":{"t":"a\\u0000b","n":1e400}}}`,
    `{ "jsonrpc" : "2.0" , "id" : 2 , "method" : "initialize" }`,
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    '{"jsonrpc":"2.0","id":9,"result":{}}',
  ];
  for (const line of valid) {
    test(line.slice(0, 60), async () => {
      const { sdk, out } = await gate(`${line}\n`);
      assert.equal(out, '');
      assert.deepEqual(sdk, Buffer.from(`${line}\n`));
    });
  }

  test('a line of more than 1 MiB, split across chunks', async () => {
    const line = request('"long"').replace('"tools/list"', `"${'L'.repeat(1_300_000)}"`);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const toSdk = strictFrames(stdin, stdout);
    const sdk: Buffer[] = [];
    toSdk.on('data', (c: Buffer) => sdk.push(c));
    const ended = new Promise((r) => toSdk.on('end', r));
    const all = Buffer.from(`${line}\n${request('2')}\n`);
    for (let i = 0; i < all.length; i += 65536) stdin.write(all.subarray(i, i + 65536));
    stdin.end();
    await ended;
    assert.deepEqual(Buffer.concat(sdk), all);
  });

  test('a \\r\\n line ending passes as sent', async () => {
    const { sdk, out } = await gate(`${request('1')}\r\n`);
    assert.equal(out, '');
    assert.deepEqual(sdk, Buffer.from(`${request('1')}\r\n`));
  });

  test('empty lines are skipped silently', async () => {
    const { sdk, out } = await gate(`\n\r\n${request('1')}\n`);
    assert.equal(out, '');
    assert.deepEqual(sdk, Buffer.from(`${request('1')}\n`));
  });
});

describe('unknown top-level members', () => {
  test('are cut out; every other byte is forwarded as sent', async () => {
    const line = `{"jsonrpc":"2.0","x-fuzz-1":{"a":[1,"}"]},"id":"u","method":"tools/list","params":{"_meta":${META}},"x-fuzz-2":"\\"q"}`;
    const { sdk, out } = await gate(`${line}\n`);
    assert.equal(out, '');
    assert.equal(sdk.toString('utf8'), `{"jsonrpc":"2.0","id":"u","method":"tools/list","params":{"_meta":${META}}}\n`);
  });

  test('a request carrying result is refused', () => {
    const verdict = judgeFrame(Buffer.from(request('1', META, ',"result":{}')));
    assert.deepEqual(verdict, { kind: 'reply', line: '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request"}}' });
  });
});

describe('bounds', () => {
  test('a line over the bound is answered once and discarded; the next line passes', async () => {
    const { sdk, out } = await gate(`${'x'.repeat(5000)}\n${request('1')}\n`, 1000);
    assert.equal(out, `${TOO_LARGE}\n`);
    assert.deepEqual(sdk, Buffer.from(`${request('1')}\n`));
  });

  test('member spans survive nesting 10,000 deep', () => {
    const deep = `${'['.repeat(10_000)}0${']'.repeat(10_000)}`;
    const members = topLevelMembers(`{"a":${deep},"b":"x"}`);
    assert.deepEqual(members.map((m) => [m.name, m.value.length]), [['a', 20_001], ['b', 3]]);
  });
});
