/**
 * Canonical JSON (seed spec §2.3 and §2.7): code-point key order, safe integers only, minimal escapes,
 * unpaired surrogates rejected, depth limit.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  canonicalJson,
  CanonicalJsonError,
  compareCodePoints,
  MAX_CANONICAL_DEPTH,
  NOT_AN_INTEGER,
  OUTSIDE_SAFE_RANGE,
  UNPAIRED_SURROGATE,
} from '../src/canonical-json.js';
import { parseExactJson } from '../src/exact-json.js';
import { FingerprintKey, requestFingerprint, type LogicalRequest } from '../src/fingerprint.js';

const KEY = FingerprintKey.of(Buffer.from('test-only-cross-language-key-32b', 'ascii'));

function canonicalOfText(text: string): string {
  return canonicalJson(parseExactJson(text));
}

/** Asserts that `fn` throws a CanonicalJsonError whose message is exactly `message`. */
function assertCanonicalError(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof CanonicalJsonError, `expected CanonicalJsonError, got ${String(err)}`);
    assert.equal(err.message, message);
    return true;
  });
}

function request(args: Record<string, unknown>): LogicalRequest {
  return { principal: 'alice', tool_id: 'create_issue', tool_version: '1.0', arguments: args };
}

function nestedArrays(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

describe('canonical JSON: spec §2.7 examples', () => {
  test('the mixed example normalises numbers and sorts keys at every level', () => {
    assert.equal(
      canonicalOfText('{"b":[1,-0.0,true,null,{"y":1,"x":[]}],"a":9007199254740991.0}'),
      '{"a":9007199254740991,"b":[1,0,true,null,{"x":[],"y":1}]}',
    );
  });

  test('no whitespace anywhere, even when the input has plenty', () => {
    assert.equal(canonicalOfText(' { "a" : [ 1 , 2 ] ,\n\t"b" : { } }\r\n'), '{"a":[1,2],"b":{}}');
  });

  test('scalars', () => {
    assert.equal(canonicalJson(null), 'null');
    assert.equal(canonicalJson(true), 'true');
    assert.equal(canonicalJson(false), 'false');
    assert.equal(canonicalJson(0), '0');
    assert.equal(canonicalJson(-42), '-42');
    assert.equal(canonicalJson('x'), '"x"');
    assert.equal(canonicalJson([]), '[]');
    assert.equal(canonicalJson({}), '{}');
  });

  test('"\\uE000" sorts before "\\u{10000}" (code points, not UTF-16 code units)', () => {
    assert.equal(canonicalJson({ '\u{10000}': 2, '\uE000': 1 }), '{"\uE000":1,"\u{10000}":2}');
    assert.ok(compareCodePoints('\uE000', '\u{10000}') < 0);
    assert.ok(compareCodePoints('\u{10000}', '\uE000') > 0);
    // UTF-16 code-unit order would say the opposite:
    assert.ok('\u{10000}' < '\uE000');
  });

  test('full key order "10" < "2" < "B" < "__proto__" < "a" < "é" < U+E000 < U+10000', () => {
    const value = parseExactJson(
      '{"\\ud800\\udc00":8,"\\ue000":7,"é":6,"a":5,"__proto__":4,"B":3,"2":2,"10":1}',
    );
    assert.equal(canonicalJson(value), '{"10":1,"2":2,"B":3,"__proto__":4,"a":5,"é":6,"\uE000":7,"\u{10000}":8}');
  });

  test('compareCodePoints: equal strings, prefixes, and plain order', () => {
    assert.equal(compareCodePoints('', ''), 0);
    assert.equal(compareCodePoints('abc', 'abc'), 0);
    assert.equal(compareCodePoints('\u{1F600}', '\u{1F600}'), 0);
    assert.equal(compareCodePoints('ab', 'abc'), -1);
    assert.equal(compareCodePoints('abc', 'ab'), 1);
    assert.equal(compareCodePoints('', 'a'), -1);
    assert.equal(compareCodePoints('a', ''), 1);
    assert.equal(compareCodePoints('a\u{10000}', 'a\uFFFF'), 1);
    assert.equal(compareCodePoints('a\uFFFF', 'a\u{10000}'), -1);
    assert.equal(compareCodePoints('\u{10000}', '\u{10001}'), -1);
  });

  test('integer-like keys are sorted as strings, not numerically', () => {
    assert.equal(canonicalJson({ 2: 'b', 10: 'a', 1: 'c', '01': 'd' }), '{"01":"d","1":"c","10":"a","2":"b"}');
  });

  test('a shorter key that is a prefix comes first', () => {
    assert.equal(canonicalJson({ ab: 2, a: 1, abc: 3 }), '{"a":1,"ab":2,"abc":3}');
  });
});

describe('canonical JSON: string escapes', () => {
  test('the §2.7 escape example', () => {
    const input = 'q"b\\s/\b\f\n\r\t\u0000\u001f\u007f\u2028é\u{1F600}';
    assert.equal(canonicalJson(input), '"q\\"b\\\\s/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u2028é\u{1F600}"');
  });

  test('each C0 control without a short escape is \\u00xx with lowercase hex', () => {
    const short: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
    for (let c = 0; c < 0x20; c++) {
      const expected = short[c] ?? `\\u00${c.toString(16).padStart(2, '0')}`;
      assert.equal(canonicalJson(String.fromCharCode(c)), `"${expected}"`, `U+${c.toString(16)}`);
    }
    assert.equal(canonicalJson('\u001b'), '"\\u001b"');
    assert.equal(canonicalJson('\u001f'), '"\\u001f"');
  });

  test('quote and backslash are escaped; slash, DEL, U+2028, U+2029, é and astral are raw', () => {
    assert.equal(canonicalJson('"'), '"\\""');
    assert.equal(canonicalJson('\\'), '"\\\\"');
    assert.equal(canonicalJson('/'), '"/"');
    assert.equal(canonicalJson('\u007f'), '"\u007f"');
    assert.equal(canonicalJson('\u2028\u2029'), '"\u2028\u2029"');
    assert.equal(canonicalJson('é'), '"é"');
    assert.equal(canonicalJson('\u{1F600}'), '"\u{1F600}"');
  });

  test('escaped input decodes and re-emits minimally', () => {
    assert.equal(canonicalOfText('"\\u00e9\\/\\u0041\\uD83D\\uDE00\\u001F"'), '"é/A\u{1F600}\\u001f"');
  });

  test('keys are escaped like values', () => {
    assert.equal(canonicalJson({ 'a"b\n': 1 }), '{"a\\"b\\n":1}');
  });
});

describe('canonical JSON: numbers', () => {
  test('{"n":1.0} and {"n":1} have the same canonical text and the same fingerprint', () => {
    const withFraction = parseExactJson('{"n":1.0}') as Record<string, unknown>;
    const plain = parseExactJson('{"n":1}') as Record<string, unknown>;
    assert.equal(canonicalJson(withFraction), '{"n":1}');
    assert.equal(canonicalJson(plain), '{"n":1}');
    assert.equal(requestFingerprint(KEY, request(withFraction)), requestFingerprint(KEY, request(plain)));
    assert.equal(requestFingerprint(KEY, request({ n: 1.0 })), requestFingerprint(KEY, request({ n: 1 })));
  });

  test('a different integer gives a different fingerprint', () => {
    assert.notEqual(requestFingerprint(KEY, request({ n: 1 })), requestFingerprint(KEY, request({ n: 2 })));
  });

  test('-0 is emitted as 0', () => {
    assert.equal(canonicalJson(-0), '0');
    assert.equal(canonicalJson([-0, -0.0]), '[0,0]');
    assert.equal(canonicalOfText('[-0,-0.0,-0e3]'), '[0,0,0]');
  });

  test('±9007199254740991 are accepted', () => {
    assert.equal(canonicalJson(9007199254740991), '9007199254740991');
    assert.equal(canonicalJson(-9007199254740991), '-9007199254740991');
    assert.equal(canonicalOfText('[9007199254740991,-9007199254740991]'), '[9007199254740991,-9007199254740991]');
  });

  test('integral exponent forms become plain integers', () => {
    assert.equal(canonicalOfText('[1e2,1E+2,1.50e1,100e-2,0e5]'), '[100,100,15,1,0]');
  });

  test('1.5 and 1e-1 are rejected: number must be an integer', () => {
    assertCanonicalError(() => canonicalOfText('{"n":1.5}'), `$.n: ${NOT_AN_INTEGER}`);
    assertCanonicalError(() => canonicalOfText('{"n":1e-1}'), `$.n: ${NOT_AN_INTEGER}`);
    assertCanonicalError(() => canonicalJson({ n: 1.5 }), `$.n: ${NOT_AN_INTEGER}`);
    assert.ok(NOT_AN_INTEGER.includes('number must be an integer'));
  });

  test('9007199254740992, -9007199254740992 and 1e400 are outside the interoperable safe range', () => {
    assertCanonicalError(() => canonicalOfText('{"n":9007199254740992}'), `$.n: ${OUTSIDE_SAFE_RANGE}`);
    assertCanonicalError(() => canonicalOfText('{"n":-9007199254740992}'), `$.n: ${OUTSIDE_SAFE_RANGE}`);
    assertCanonicalError(() => canonicalOfText('{"n":1e400}'), `$.n: ${OUTSIDE_SAFE_RANGE}`);
    assertCanonicalError(() => canonicalJson({ n: 2 ** 53 }), `$.n: ${OUTSIDE_SAFE_RANGE}`);
    assertCanonicalError(() => canonicalJson({ n: -(2 ** 53) }), `$.n: ${OUTSIDE_SAFE_RANGE}`);
    assert.ok(OUTSIDE_SAFE_RANGE.includes('outside the interoperable safe range'));
  });

  test('9007199254740993 (which JSON.parse would round) is rejected, not rounded', () => {
    assertCanonicalError(() => canonicalOfText('[9007199254740993]'), `$[0]: ${OUTSIDE_SAFE_RANGE}`);
  });

  test('1.0000000000000000001 is not an integer, although a double would round it to 1', () => {
    assertCanonicalError(() => canonicalOfText('{"n":1.0000000000000000001}'), `$.n: ${NOT_AN_INTEGER}`);
  });

  test('NaN, Infinity and -Infinity given as JS numbers are rejected', () => {
    assertCanonicalError(() => canonicalJson({ n: NaN }), `$.n: ${NOT_AN_INTEGER}`);
    assertCanonicalError(() => canonicalJson({ n: Infinity }), `$.n: ${NOT_AN_INTEGER}`);
    assertCanonicalError(() => canonicalJson({ n: -Infinity }), `$.n: ${NOT_AN_INTEGER}`);
  });

  test('a boolean is never a number', () => {
    assert.equal(canonicalJson([true, false, 1, 0]), '[true,false,1,0]');
  });

  test('a rejected number in arguments fails the fingerprint with its path', () => {
    assertCanonicalError(
      () => requestFingerprint(KEY, request(parseExactJson('{"n":1.5}') as Record<string, unknown>)),
      `$.arguments.n: ${NOT_AN_INTEGER}`,
    );
    assertCanonicalError(
      () => requestFingerprint(KEY, request(parseExactJson('{"a":[0,2e53]}') as Record<string, unknown>)),
      `$.arguments.a[1]: ${OUTSIDE_SAFE_RANGE}`,
    );
  });

  test('a rejected number in an opaque field fails with that field path', () => {
    const bad = parseExactJson('{"x":0.5}');
    assertCanonicalError(
      () => requestFingerprint(KEY, { ...request({}), input_responses: bad }),
      `$.input_responses.x: ${NOT_AN_INTEGER}`,
    );
  });
});

describe('canonical JSON: unpaired surrogates', () => {
  test('a lone surrogate in an argument value is rejected with its path', () => {
    assertCanonicalError(
      () => requestFingerprint(KEY, request({ bad: '\ud800' })),
      `$.arguments.bad: ${UNPAIRED_SURROGATE}`,
    );
    assert.equal(UNPAIRED_SURROGATE, 'unpaired UTF-16 surrogate is not valid Unicode');
  });

  test('a lone surrogate parsed from a \\u escape is rejected too', () => {
    const args = parseExactJson('{"bad":"x\\udc00"}') as Record<string, unknown>;
    assertCanonicalError(() => requestFingerprint(KEY, request(args)), `$.arguments.bad: ${UNPAIRED_SURROGATE}`);
  });

  test('a lone surrogate in a key is rejected, the path showing it escaped', () => {
    assertCanonicalError(() => canonicalJson({ k: { '\ud800': 1 } }), `$.k.\\ud800: ${UNPAIRED_SURROGATE}`);
    assertCanonicalError(() => requestFingerprint(KEY, request({ 'a\udfff': 1 })), `$.arguments.a\\udfff: ${UNPAIRED_SURROGATE}`);
  });

  test('high surrogate at the end, low first, and two highs are all rejected', () => {
    for (const s of ['ab\ud83d', '\ude00x', '\ud83d\ud83d', '\ude00\ud83d']) {
      assertCanonicalError(() => canonicalJson([s]), `$[0]: ${UNPAIRED_SURROGATE}`);
    }
  });

  test('a valid pair is accepted and emitted raw', () => {
    assert.equal(canonicalJson('\ud83d\ude00'), '"\u{1F600}"');
  });
});

describe('canonical JSON: values that are not JSON', () => {
  test('sparse arrays are rejected with the index of the hole', () => {
    const sparse = [1, , 3];
    assertCanonicalError(() => canonicalJson({ a: sparse }), '$.a[1]: sparse arrays are not JSON');
    assertCanonicalError(() => canonicalJson(new Array(2)), '$[0]: sparse arrays are not JSON');
  });

  test('Date and Map are rejected as non-plain objects', () => {
    assertCanonicalError(() => canonicalJson({ d: new Date(0) }), '$.d: only plain JSON objects are supported');
    assertCanonicalError(() => canonicalJson({ m: new Map() }), '$.m: only plain JSON objects are supported');
    assertCanonicalError(
      () => requestFingerprint(KEY, request({ when: new Date(0) })),
      '$.arguments.when: only plain JSON objects are supported',
    );
  });

  test('an undefined member is rejected', () => {
    assertCanonicalError(() => canonicalJson({ u: undefined }), '$.u: undefined is not JSON');
    assertCanonicalError(
      () => requestFingerprint(KEY, request({ u: undefined })),
      '$.arguments.u: undefined is not JSON',
    );
  });

  test('undefined, bigint, symbol and function values are unsupported', () => {
    assertCanonicalError(() => canonicalJson(undefined), '$: unsupported JSON value undefined');
    assertCanonicalError(() => canonicalJson([1n]), '$[0]: unsupported JSON value bigint');
    assertCanonicalError(() => canonicalJson({ s: Symbol('x') }), '$.s: unsupported JSON value symbol');
    assertCanonicalError(() => canonicalJson({ f: () => 1 }), '$.f: unsupported JSON value function');
  });

  test('an object with a null prototype is a plain object', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare['b'] = 1;
    bare['a'] = 2;
    assert.equal(canonicalJson(bare), '{"a":2,"b":1}');
  });

  test('a custom path prefix is used in messages', () => {
    assertCanonicalError(() => canonicalJson({ n: 0.5 }, '$.thing'), `$.thing.n: ${NOT_AN_INTEGER}`);
  });
});

describe('canonical JSON: __proto__ and depth', () => {
  test('__proto__ parsed from JSON stays a data member', () => {
    const value = parseExactJson('{"__proto__":{"polluted":1},"z":0}') as Record<string, unknown>;
    assert.ok(Object.hasOwn(value, '__proto__'));
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    const text = canonicalJson(value);
    assert.equal(text, '{"__proto__":{"polluted":1},"z":0}');
    assert.ok(text.includes('"__proto__"'));
  });

  test('__proto__ changes the fingerprint as any other member would', () => {
    const withProto = parseExactJson('{"__proto__":"data"}') as Record<string, unknown>;
    assert.notEqual(requestFingerprint(KEY, request(withProto)), requestFingerprint(KEY, request({})));
  });

  test(`nesting of exactly ${MAX_CANONICAL_DEPTH} levels is accepted`, () => {
    assert.equal(MAX_CANONICAL_DEPTH, 1000);
    const text = canonicalJson(nestedArrays(1000));
    assert.equal(text, '['.repeat(1000) + ']'.repeat(1000));
  });

  test('nesting deeper than 1000 levels is rejected', () => {
    assert.throws(
      () => canonicalJson(nestedArrays(1001)),
      (err: unknown) =>
        err instanceof CanonicalJsonError && /nesting deeper than 1000 levels$/.test(err.message) && err.message.startsWith('$[0]'),
    );
    let deepObject: unknown = {};
    for (let i = 0; i < 1001; i++) deepObject = { a: deepObject };
    assert.throws(
      () => canonicalJson(deepObject),
      (err: unknown) => err instanceof CanonicalJsonError && err.message.endsWith(': nesting deeper than 1000 levels'),
    );
  });

  test('in a fingerprint, an opaque field may nest 1000 levels (it is canonicalised on its own), not 1001', () => {
    assert.match(requestFingerprint(KEY, { ...request({}), continuation_state: nestedArrays(1000) }), /^[0-9a-f]{64}$/);
    assert.throws(
      () => requestFingerprint(KEY, { ...request({}), continuation_state: nestedArrays(1001) }),
      (err: unknown) =>
        err instanceof CanonicalJsonError &&
        err.message === `$.continuation_state${'[0]'.repeat(1000)}: nesting deeper than 1000 levels`,
    );
  });

  test('in a fingerprint, arguments sit at level 2 of the payload: 999 levels inside them pass, 1000 do not', () => {
    assert.match(requestFingerprint(KEY, request({ a: nestedArrays(998) })), /^[0-9a-f]{64}$/);
    assert.throws(
      () => requestFingerprint(KEY, request({ a: nestedArrays(999) })),
      (err: unknown) =>
        err instanceof CanonicalJsonError &&
        err.message === `$.arguments.a${'[0]'.repeat(998)}: nesting deeper than 1000 levels`,
    );
  });

  test('parsed input deeper than 1000 (but within the parser limit) is rejected by the canonicaliser', () => {
    const value = parseExactJson('['.repeat(1050) + ']'.repeat(1050));
    assert.throws(
      () => canonicalJson(value),
      (err: unknown) => err instanceof CanonicalJsonError && err.message.endsWith('nesting deeper than 1000 levels'),
    );
  });
});
