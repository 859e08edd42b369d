/**
 * The strict frame gate (src/strict-frames.ts, src/frame-verdict.ts). Its verdict on single lines lives in the shared
 * table vectors/rules/strict-frames.json, which FrameGateTest (Java) reads too; the two gates differ on purpose in
 * places, and the table says where and why. This file adds what is the fixture's own: chunks, terminators, bounds.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { topLevelMembers } from '../src/json-members.js';
import { strictFrames, TOO_LARGE } from '../src/strict-frames.js';
import { loadRuleTable } from './rule-table.js';

const TABLE = loadRuleTable('strict-frames.json');
const NEWLINE = Buffer.from('\n');

const META = '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
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

type Part = string | { hex: string } | { repeat: string; times: number };

/** A line of the table: a string (UTF-8), or parts that are strings, {hex} or {repeat, times}. */
function lineBytes(line: string | Part[]): Buffer {
  const parts = typeof line === 'string' ? [line] : line;
  return Buffer.concat(
    parts.map((part) => {
      if (typeof part === 'string') return Buffer.from(part, 'utf8');
      if ('hex' in part) return Buffer.from(part.hex, 'hex');
      return Buffer.from(part.repeat.repeat(part.times), 'utf8');
    }),
  );
}

describe('the shared table: one line through the gate', () => {
  for (const rule of TABLE.cases) {
    test(rule.name, async () => {
      const line = lineBytes(rule.row['line'] as string | Part[]);
      const { sdk, out } = await gate(Buffer.concat([line, NEWLINE]));
      const expected = rule.expected;
      switch (expected['verdict']) {
        case 'forward': {
          const as = typeof expected['as'] === 'string' ? Buffer.from(expected['as'], 'utf8') : line;
          assert.equal(out, '', 'nothing on stdout');
          assert.ok(sdk.equals(Buffer.concat([as, NEWLINE])), 'forwarded as expected');
          break;
        }
        case 'reply':
          assert.equal(out, `${expected['line'] as string}\n`);
          assert.equal(sdk.length, 0, 'nothing forwarded');
          break;
        case 'drop':
          assert.equal(out, '', 'nothing on stdout');
          assert.equal(sdk.length, 0, 'nothing forwarded');
          break;
        default:
          assert.fail(`unknown verdict ${JSON.stringify(expected)}`);
      }
    });
  }
});

describe('lines and chunks', () => {
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
