/**
 * The fast canonicaliser (a checking walk, a copy of only what is out of order, JSON.stringify) against the
 * implementation it replaced (test/reference-fingerprint.ts), on seeded random values that are mostly invalid
 * somewhere: unpaired surrogates in keys and strings, fractions and unsafe integers, undefined members, sparse
 * arrays, class instances, array-index and __proto__ keys, members out of order. Either both give the same text (and
 * digest), or both throw the same error.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalJson, compareCodePoints, MAX_CANONICAL_DEPTH } from '../src/canonical-json.js';
import { InexactNumber } from '../src/exact-json.js';
import { FingerprintKey, requestFingerprint, type LogicalRequest } from '../src/fingerprint.js';
import { referenceCanonicalJson, referenceCompareCodePoints, referenceFingerprint } from './reference-fingerprint.js';

const KEY_BYTES = Buffer.from('test-only-cross-language-key-32b', 'ascii');
const KEY = FingerprintKey.of(KEY_BYTES);

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UNITS = ['a', 'b', 'c', 'B', '"', '\\', '\b', '\n', '\t', '\u0000', '\u001f', '\u007f', '/', '\u00e9', '\u2028',
  '\ud7ff', '\ue000', '\uffff', '\ud83d\ude00', '\ud800', '\udbff', '\udc00', '\udfff', 'u', 'd', '8'];
const KEYS = ['', 'a', 'b', 'B', '10', '2', '0', '4294967294', '4294967295', '01', '__proto__', 'toString', 'constructor',
  '\u00e9', '\ue000', '\ud800\udc00', '\ud800', 'k\udfff', '\\ud800', 'text', 'n', 'tags'];
const NUMBERS = [0, -0, 1, -1, 1.5, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, NaN, Infinity, -Infinity, 0.1, 10];

type Gen = () => number;

function pick<T>(rnd: Gen, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)]!;
}

function text(rnd: Gen, max: number): string {
  let out = '';
  const n = Math.floor(rnd() * (max + 1));
  for (let i = 0; i < n; i++) out += rnd() < 0.6 ? 'x' : pick(rnd, UNITS);
  return out;
}

function value(rnd: Gen, depth: number): unknown {
  const r = rnd();
  if (depth <= 0 || r < 0.45) {
    const leaf = rnd();
    if (leaf < 0.35) return text(rnd, 6);
    if (leaf < 0.6) return pick(rnd, NUMBERS);
    if (leaf < 0.7) return rnd() < 0.5;
    if (leaf < 0.8) return null;
    if (leaf < 0.85) return new InexactNumber('1.5', rnd() < 0.5 ? 'fraction' : 'range');
    if (leaf < 0.88) return pick(rnd, [undefined, () => 1, 10n, Symbol('s'), new Date(0), new Map()]);
    return Math.floor(rnd() * 1000);
  }
  if (r < 0.7) {
    const items: unknown[] = [];
    const n = Math.floor(rnd() * 4);
    for (let i = 0; i < n; i++) items.push(value(rnd, depth - 1));
    if (rnd() < 0.05) items.length += 1; // a hole at the end
    return items;
  }
  const record: Record<string, unknown> = rnd() < 0.1 ? Object.create(null) : {};
  const n = Math.floor(rnd() * 5);
  for (let i = 0; i < n; i++) {
    const key = rnd() < 0.7 ? pick(rnd, KEYS) : text(rnd, 3);
    Object.defineProperty(record, key, { value: value(rnd, depth - 1), enumerable: true, writable: true, configurable: true });
  }
  return record;
}

function outcome(run: () => string): string {
  try {
    return run();
  } catch (err) {
    return `error: ${(err as Error).constructor.name}: ${(err as Error).message}`;
  }
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x === undefined ? '<undefined>' : x));
}

describe('fast canonical JSON matches the reference implementation', () => {
  test('text or error on random values, mostly invalid somewhere', () => {
    let rejected = 0;
    for (let seed = 1; seed <= 4000; seed++) {
      const v = value(random(seed), 4);
      const expected = outcome(() => referenceCanonicalJson(v));
      assert.equal(outcome(() => canonicalJson(v)), expected, `seed ${seed}: ${show(v)}`);
      assert.equal(outcome(() => canonicalJson(v, '$.x')), outcome(() => referenceCanonicalJson(v, '$.x')), `seed ${seed}`);
      if (expected.startsWith('error: ')) rejected++;
    }
    assert.ok(rejected > 800 && rejected < 3200, `rejected ${rejected} of 4000: the generator must reach both outcomes`);
  });

  test('digest or error on random requests', () => {
    let accepted = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const rnd = random(seed * 7919);
      const args = value(rnd, 3);
      const request = {
        principal: rnd() < 0.2 ? null : text(rnd, 4),
        tool_id: text(rnd, 3),
        tool_version: text(rnd, 2),
        arguments: args !== null && typeof args === 'object' && !Array.isArray(args) ? args : { v: args },
        continuation_state: value(rnd, 2),
        input_responses: value(rnd, 2),
      } as LogicalRequest;
      const expected = outcome(() => referenceFingerprint(KEY_BYTES, request));
      assert.equal(outcome(() => requestFingerprint(KEY, request)), expected, `seed ${seed}: ${show(request)}`);
      if (!expected.startsWith('error: ')) accepted++;
    }
    assert.ok(accepted > 100, `accepted ${accepted} of 1500`);
  });

  test('code-point order on keys sharing prefixes and surrogates', () => {
    const rnd = random(17);
    for (let i = 0; i < 5000; i++) {
      const prefix = pick(rnd, ['', 'a', '\ud83d', '\ud83d\ude00', 'a\ud83d']);
      const a = prefix + text(rnd, 3);
      const b = (rnd() < 0.5 ? prefix : '') + text(rnd, 3);
      assert.equal(Math.sign(compareCodePoints(a, b)), Math.sign(referenceCompareCodePoints(a, b)), show([a, b]));
    }
  });

  test('nesting limit, array subclasses, shared subtrees, a polluted toJSON and the literal text \\ud', () => {
    for (let depth = MAX_CANONICAL_DEPTH - 2; depth <= MAX_CANONICAL_DEPTH + 2; depth++) {
      let nested: unknown = [];
      for (let i = 1; i < depth; i++) nested = [nested];
      const unordered = { b: nested, a: 1 };
      assert.equal(outcome(() => canonicalJson(nested)), outcome(() => referenceCanonicalJson(nested)), `depth ${depth}`);
      assert.equal(outcome(() => canonicalJson(unordered)), outcome(() => referenceCanonicalJson(unordered)), `depth ${depth}`);
      const request: LogicalRequest = { principal: 'p', tool_id: 't', tool_version: '1', arguments: { n: nested } };
      assert.equal(outcome(() => requestFingerprint(KEY, request)), outcome(() => referenceFingerprint(KEY_BYTES, request)));
    }
    class Items extends Array<unknown> {
      toJSON(): string {
        return 'not me';
      }
    }
    const items = Items.from([{ b: 1, a: 2 }, 'x']) as unknown[];
    const shared = { z: 1, y: [2] };
    for (const v of [items, { k: items }, [shared, { s: shared }, shared], { t: 'a\\ud800 b', '\\ud83d': 1 }, { b: '\\', a: '\\u' }]) {
      assert.equal(outcome(() => canonicalJson(v)), outcome(() => referenceCanonicalJson(v)), show(v));
    }
    const saved = Object.getOwnPropertyDescriptor(Object.prototype, 'toJSON');
    Object.defineProperty(Object.prototype, 'toJSON', { value: () => 'polluted', configurable: true, writable: true });
    try {
      const v = { b: [{ d: 1, c: 2 }], a: { x: 1 } };
      assert.equal(canonicalJson(v), referenceCanonicalJson(v));
    } finally {
      if (saved === undefined) delete (Object.prototype as { toJSON?: unknown }).toJSON;
      else Object.defineProperty(Object.prototype, 'toJSON', saved);
    }
  });

  test('a large value with escapes, non-ASCII text and members out of order at every level', () => {
    const details: Record<string, unknown> = {};
    for (let i = 0; i < 400; i++) {
      details[`item-${String(i).padStart(4, '0')}`] = { text: 'line "quoted" \\ caf\u00e9 \u6f22\u5b57 tab\t end. '.repeat(3), n: i * 7919, tags: ['a', true, null] };
    }
    const args = { operation_id: 'bench', title: 'large', mode: 'atomic', details, 10: 'ten', 2: 'two' };
    assert.equal(canonicalJson(args), referenceCanonicalJson(args));
    const request: LogicalRequest = { principal: 'alice', tool_id: 't', tool_version: '1', arguments: args, continuation_state: args, input_responses: null };
    assert.equal(requestFingerprint(KEY, request), referenceFingerprint(KEY_BYTES, request));
  });
});
