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

/**
 * Digests under the test key, computed independently of this code base by a direct Python transcription of seed
 * spec §2.3–2.5 (json.loads, sorted keys, ensure_ascii=False, hmac/hashlib). Vector 00 is the spec's worked example.
 */
const EXPECTED_DIGESTS: Readonly<Record<string, string>> = {
  '00_control_single_round': '8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97',
  '01_identical_retry': 'ee4f94fa05dcf57deaddf3e31dc6d606b3662fac3c55d1f04565816f36abb757',
  '02_never_admitted': '28ac100a37f772ab0a9843dc092081186e6ece64796fc001a7d1f7cb4205ae9f',
  '03_lost_reply_replay': '7fbc69e28ce799037820d894859441d607f9631a316d77971c4f4d75c53eaad4',
  '04_changed_input_responses': '356c004404c208575a013d6435135f63c9428eb39ed48af395f7d1676fffb160',
  '05_tampered_request_state': 'c33f8b57c78f17b55931fd741118d5da0bff9f77ce1bb30b354b9c6c54eb032e',
  '06_different_principal': 'fc2e84c0e49ea4d739e84ca999109209ea17c32475a309f4fd60542a0b8ee82e',
  '07_approval_expired': 'bf880c987908ebd238bdabe15425922ab78c30b44507f539d513c3f9d3498421',
  '08_concurrent_attempt_a': 'ee4f94fa05dcf57deaddf3e31dc6d606b3662fac3c55d1f04565816f36abb757',
  '09_crash_after_commit': '0460b6190615d8e04480f7425de8a1b846c1bd62c1848154fa6516ffc47bfe66',
  '10_key_retention_expired': '48c6379923a0ec6f414e1ee2ce4a0da191b834b80663b2112b89976fad3194f2',
  '11_metadata_stripped': 'fdbb5eff3af85f4a117e949ec3893f4cda29199ed72032914fb214c9aa074358',
  '12_partial_then_compensated': 'eeaa23c8b030221f05ed67ac1bf2147896d89152ae2578d421be4cd43ab6303a',
  unsafe_new_identity_retry: '28ac100a37f772ab0a9843dc092081186e6ece64796fc001a7d1f7cb4205ae9f',
  unicode_scalar_order_and_utf8: 'd8e92cc253c773276b38c53ec37fc468544dd7e3df7d6cb01f7dbed47f58c8f1',
  maximum_safe_integer: '6af726ac8ad54dd1dd677137fe985dcb5283560281c98c2d03139fb966674308',
  special_and_integer_like_keys: 'dd0860a5aefd3899ca4d147586939a7d08a8992aeb236c3a892db3cb6d61a5e5',
};

interface Vector {
  name: string;
  request: LogicalRequest;
}

function loadVectors(): Vector[] {
  const file = parseExactJson(readFileSync(VECTOR_FILE, 'utf8'));
  assert.ok(file !== null && typeof file === 'object' && !Array.isArray(file), 'vector file must be an object');
  const list = (file as Record<string, unknown>)['vectors'];
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
      Object.keys(EXPECTED_DIGESTS),
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

  test('every vector matches the independently computed digest', () => {
    for (const { name, request } of VECTORS) {
      assert.equal(requestFingerprint(KEY, request), EXPECTED_DIGESTS[name], name);
    }
  });

  test('01 == 08 (same logical operation) and 02 == unsafe_new_identity_retry (identical inputs)', () => {
    assert.equal(digest('01_identical_retry'), digest('08_concurrent_attempt_a'));
    assert.equal(digest('02_never_admitted'), digest('unsafe_new_identity_retry'));
  });

  test('04, 06, 11 and unsafe_new_identity_retry differ from 01', () => {
    const retry = digest('01_identical_retry');
    assert.notEqual(digest('04_changed_input_responses'), retry);
    assert.notEqual(digest('06_different_principal'), retry);
    assert.notEqual(digest('11_metadata_stripped'), retry);
    assert.notEqual(digest('unsafe_new_identity_retry'), retry);
  });

  test('09 has a different continuation state and does not coincide with 01', () => {
    assert.notEqual(digest('09_crash_after_commit'), digest('01_identical_retry'));
  });

  test('apart from 01/08 and 02/unsafe_new_identity_retry, all digests are distinct', () => {
    const digests = VECTORS.map((v) => requestFingerprint(KEY, v.request));
    assert.equal(new Set(digests).size, VECTORS.length - 2);
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
