/**
 * The shared vectors (vectors/fingerprint_vectors.json, seed spec §2.5–2.6) through the TypeScript fingerprint.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from '../src/canonical-json.js';
import { parseExactJson } from '../src/exact-json.js';
import { bindOpaqueField, FingerprintKey, requestFingerprint, type LogicalRequest } from '../src/fingerprint.js';
import { readNamedRequest } from '../src/logical-request.js';

// Compiled to build-test/test/vectors.test.js; the vectors live in <repo>/vectors/.
const HERE = dirname(fileURLToPath(import.meta.url));
const VECTOR_FILE = resolve(HERE, '..', '..', '..', 'vectors', 'fingerprint_vectors.json');

const TEST_KEY_ASCII = 'test-only-cross-language-key-32b';
const TEST_KEY_HEX = '746573742d6f6e6c792d63726f73732d6c616e67756167652d6b65792d333262';
const KEY = FingerprintKey.of(Buffer.from(TEST_KEY_ASCII, 'ascii'));

const VECTOR_00_DIGEST = '8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97';
const VECTOR_00_BOUND_STATE = 'd4d85246fe21047dd450f54774a06f90fab65dab0476eab70af3aac5da739cfc';
const VECTOR_00_BOUND_RESPONSES = '41f2c8de4cba8e1429b26d4320fc7f3d93f513f04356c17c45b95ba60001de98';

/** The file's own expectations: the digests under the test key and the relations between vectors. */
interface Expected {
  key_ascii: string;
  key_hex: string;
  digests: Record<string, string>;
  relations: Array<{ left: string; right: string; equal: boolean; why: string }>;
}

interface Vector {
  name: string;
  request: LogicalRequest;
}

const FILE = parseExactJson(readFileSync(VECTOR_FILE, 'utf8')) as Record<string, unknown>;
const EXPECTED = FILE['expected'] as Expected;

function loadVectors(): Vector[] {
  assert.ok(FILE !== null && typeof FILE === 'object' && !Array.isArray(FILE), 'vector file must be an object');
  const list = FILE['vectors'];
  assert.ok(Array.isArray(list), 'vector file must have a "vectors" array');
  return list.map((entry) => {
    const named = readNamedRequest(entry);
    assert.ok(named.name !== null, 'every vector has a name');
    return { name: named.name, request: named.request };
  });
}

const VECTORS = loadVectors();

function vector(name: string): LogicalRequest {
  const found = VECTORS.find((v) => v.name === name);
  assert.ok(found !== undefined, `vector ${name} is missing`);
  return found.request;
}

function digest(name: string): string {
  return requestFingerprint(KEY, vector(name));
}

describe('fingerprint vectors', () => {
  test('the test key hex is the ASCII test key', () => {
    assert.equal(Buffer.from(TEST_KEY_ASCII, 'ascii').toString('hex'), TEST_KEY_HEX);
    assert.equal(Buffer.from(TEST_KEY_HEX, 'hex').length, 32);
  });

  test('the file holds the 17 seed vectors with unique names, in order', () => {
    assert.equal(VECTORS.length, 17);
    assert.deepEqual(
      VECTORS.map((v) => v.name),
      Object.keys(EXPECTED.digests),
    );
    assert.equal(new Set(VECTORS.map((v) => v.name)).size, 17);
  });

  test('every vector produces 64 lowercase hex characters', () => {
    for (const { name, request } of VECTORS) {
      assert.match(requestFingerprint(KEY, request), /^[0-9a-f]{64}$/, name);
    }
  });

  test('vector 00 with the test key gives the worked-example digest', () => {
    assert.equal(digest('00_control_single_round'), VECTOR_00_DIGEST);
  });

  test('vector 00 with the hex form of the test key gives the same digest', () => {
    const key = FingerprintKey.of(Buffer.from(TEST_KEY_HEX, 'hex'));
    assert.equal(requestFingerprint(key, vector('00_control_single_round')), VECTOR_00_DIGEST);
  });

  test('vector 00 binds its opaque fields as in the worked example', () => {
    const request = vector('00_control_single_round');
    assert.equal(bindOpaqueField(KEY, 'continuation_state', request.continuation_state), VECTOR_00_BOUND_STATE);
    assert.equal(bindOpaqueField(KEY, 'input_responses', request.input_responses), VECTOR_00_BOUND_RESPONSES);
  });

  test('vector 00 canonical payload is the worked example text, and its SHA-256 is the digest', async () => {
    const { createHash } = await import('node:crypto');
    const request = vector('00_control_single_round');
    const payload = canonicalJson({
      principal: request.principal,
      tool_id: request.tool_id,
      tool_version: request.tool_version,
      arguments: request.arguments,
      continuation_state: VECTOR_00_BOUND_STATE,
      input_responses: VECTOR_00_BOUND_RESPONSES,
    });
    assert.equal(
      payload,
      '{"arguments":{"title":"spec"},' +
        `"continuation_state":"${VECTOR_00_BOUND_STATE}",` +
        `"input_responses":"${VECTOR_00_BOUND_RESPONSES}",` +
        '"principal":"alice","tool_id":"create_issue","tool_version":"1.0"}',
    );
    assert.equal(createHash('sha256').update(payload, 'utf8').digest('hex'), VECTOR_00_DIGEST);
  });

  test('a null opaque field binds the message "<field>\\0null"', async () => {
    const { createHmac } = await import('node:crypto');
    const key = Buffer.from(TEST_KEY_ASCII, 'ascii');
    for (const field of ['continuation_state', 'input_responses'] as const) {
      const expected = createHmac('sha256', key).update(`${field}\u0000null`, 'utf8').digest('hex');
      assert.equal(bindOpaqueField(KEY, field, null), expected, field);
      assert.equal(bindOpaqueField(KEY, field, undefined), expected, `${field} undefined`);
    }
  });

  test('a string continuation state binds as a JSON string literal, quotes included', async () => {
    const { createHmac } = await import('node:crypto');
    const key = Buffer.from(TEST_KEY_ASCII, 'ascii');
    const expected = createHmac('sha256', key).update('continuation_state\u0000"awaiting-body"', 'utf8').digest('hex');
    assert.equal(bindOpaqueField(KEY, 'continuation_state', 'awaiting-body'), expected);
    assert.equal(expected, VECTOR_00_BOUND_STATE);
  });

  test('the file expects its digests under the test key, and agrees with the worked example', () => {
    assert.equal(EXPECTED.key_ascii, TEST_KEY_ASCII);
    assert.equal(EXPECTED.key_hex, TEST_KEY_HEX);
    assert.equal(EXPECTED.digests['00_control_single_round'], VECTOR_00_DIGEST);
  });

  test('every vector matches the digest the file expects', () => {
    for (const { name, request } of VECTORS) {
      assert.equal(requestFingerprint(KEY, request), EXPECTED.digests[name], name);
    }
  });

  test('the relations the file promises hold', () => {
    assert.ok(EXPECTED.relations.length >= 7, "the seed's relations and the 09 correction");
    for (const relation of EXPECTED.relations) {
      assert.equal(digest(relation.left) === digest(relation.right), relation.equal, JSON.stringify(relation));
    }
  });

  test('no two vectors coincide unless a relation says so', () => {
    const group = new Map(VECTORS.map((v) => [v.name, v.name]));
    for (const { left, right, equal } of EXPECTED.relations) {
      if (!equal) continue;
      const from = group.get(right);
      const to = group.get(left) as string;
      for (const [name, g] of group) if (g === from) group.set(name, to);
    }
    for (const a of VECTORS) {
      for (const b of VECTORS) {
        assert.equal(digest(a.name) === digest(b.name), group.get(a.name) === group.get(b.name), `${a.name} vs ${b.name}`);
      }
    }
  });

  test('a different key changes every digest', () => {
    const other = FingerprintKey.of(Buffer.alloc(32, 0x42));
    for (const { name, request } of VECTORS) {
      assert.notEqual(requestFingerprint(other, request), requestFingerprint(KEY, request), name);
    }
  });

  test('the unicode vector reads its code points exactly from the UTF-8 file', () => {
    const request = vector('unicode_scalar_order_and_utf8');
    assert.equal(request.principal, '\u00e1l\u00ee\u00e7\u00e9');
    assert.deepEqual(Object.keys(request.arguments).sort(), ['text', '\u{10000}', '\uE000'].sort());
    assert.equal(request.arguments['text'], 'Cafe\u0301 \u{1F600}\u00a0');
    assert.equal(request.continuation_state, '\u72b6\u614b');
    assert.equal(
      canonicalJson(request.arguments),
      '{"text":"Cafe\u0301 \u{1F600}\u00a0","\uE000":"bmp","\u{10000}":"astral"}',
    );
  });

  test('maximum_safe_integer keeps 9007199254740991 exactly', () => {
    const request = vector('maximum_safe_integer');
    assert.equal(request.arguments['sequence'], 9007199254740991);
    assert.equal(canonicalJson(request.arguments), '{"sequence":9007199254740991}');
  });

  test('special_and_integer_like_keys keeps __proto__ as a data member', () => {
    const request = vector('special_and_integer_like_keys');
    assert.ok(Object.hasOwn(request.arguments, '__proto__'));
    assert.equal(Object.getPrototypeOf(request.arguments), Object.prototype);
    assert.equal(canonicalJson(request.arguments), '{"10":"ten","2":"two","__proto__":"data"}');
  });
});
