/**
 * readNamedRequest / readLogicalRequest: the member rules of one input line, and the key rule.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CanonicalJsonError, UNPAIRED_SURROGATE } from '../src/canonical-json.js';
import { InexactNumber, parseExactJson } from '../src/exact-json.js';
import { FingerprintKey, MIN_KEY_BYTES, requestFingerprint, SHORT_KEY } from '../src/fingerprint.js';
import { readLogicalRequest, readName, readNamedRequest, RequestShapeError } from '../src/logical-request.js';

const KEY = FingerprintKey.of(Buffer.from('test-only-cross-language-key-32b', 'ascii'));
const VECTOR_00_DIGEST = '8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97';
const VECTOR_00_LINE =
  '{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"},' +
  '"continuation_state":"awaiting-body","input_responses":{"body":{"action":"accept","content":{"body":"alpha"}}}}';

function base(): Record<string, unknown> {
  return { principal: 'alice', tool_id: 'create_issue', tool_version: '1.0', arguments: { title: 'spec' } };
}

function without(member: string): Record<string, unknown> {
  const value = base();
  delete value[member];
  return value;
}

function assertShapeError(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof RequestShapeError, `expected RequestShapeError, got ${String(err)}`);
    assert.equal(err.message, message);
    return true;
  });
}

describe('readLogicalRequest', () => {
  test('reads a full request from parsed JSON', () => {
    const request = readLogicalRequest(parseExactJson(VECTOR_00_LINE));
    assert.deepEqual(request, {
      principal: 'alice',
      tool_id: 'create_issue',
      tool_version: '1.0',
      arguments: { title: 'spec' },
      continuation_state: 'awaiting-body',
      input_responses: { body: { action: 'accept', content: { body: 'alpha' } } },
    });
    assert.equal(requestFingerprint(KEY, request), VECTOR_00_DIGEST);
  });

  test('a null principal is allowed', () => {
    const request = readLogicalRequest({ ...base(), principal: null });
    assert.equal(request.principal, null);
    assert.match(requestFingerprint(KEY, request), /^[0-9a-f]{64}$/);
    assert.notEqual(requestFingerprint(KEY, request), requestFingerprint(KEY, readLogicalRequest(base())));
  });

  test('missing opaque fields default to null', () => {
    const request = readLogicalRequest(base());
    assert.equal(request.continuation_state, null);
    assert.equal(request.input_responses, null);
  });

  test('missing opaque fields give the same digest as explicit nulls', () => {
    const implicit = requestFingerprint(KEY, readLogicalRequest(base()));
    const explicit = requestFingerprint(
      KEY,
      readLogicalRequest({ ...base(), continuation_state: null, input_responses: null }),
    );
    assert.equal(implicit, explicit);
    const onlyOne = requestFingerprint(KEY, readLogicalRequest({ ...base(), input_responses: null }));
    assert.equal(onlyOne, implicit);
  });

  test('an opaque field may hold any JSON value, and each value changes the digest', () => {
    const digests = [null, 'x', 1, true, [], {}, { a: 1 }].map((v) =>
      requestFingerprint(KEY, readLogicalRequest({ ...base(), continuation_state: v })),
    );
    assert.equal(new Set(digests).size, digests.length);
  });

  test('the two opaque fields are not interchangeable', () => {
    const inState = requestFingerprint(KEY, readLogicalRequest({ ...base(), continuation_state: 'v' }));
    const inResponses = requestFingerprint(KEY, readLogicalRequest({ ...base(), input_responses: 'v' }));
    assert.notEqual(inState, inResponses);
  });

  test('not an object', () => {
    for (const value of [null, 1, 'x', true, [], [base()], new InexactNumber('1.5', 'fraction'), undefined]) {
      assertShapeError(() => readLogicalRequest(value), 'a LogicalRequest must be a JSON object');
    }
  });

  test('an unknown member is rejected with its path', () => {
    assertShapeError(() => readLogicalRequest({ ...base(), extra: 1 }), '$.extra: unknown LogicalRequest member');
    assertShapeError(() => readLogicalRequest({ ...base(), name: 'n' }), '$.name: unknown LogicalRequest member');
    assertShapeError(() => readLogicalRequest({ ...base(), Principal: 'x' }), '$.Principal: unknown LogicalRequest member');
  });

  test('"__proto__" as a member is an unknown member, not a prototype', () => {
    assertShapeError(
      () => readLogicalRequest(parseExactJson('{"__proto__":{},"principal":"a","tool_id":"t","tool_version":"1","arguments":{}}')),
      '$.__proto__: unknown LogicalRequest member',
    );
  });

  test('the first unknown member in code-point order is reported', () => {
    assertShapeError(
      () => readLogicalRequest(parseExactJson('{"zeta":1,"10":1,"2":1,"principal":"a"}')),
      '$.10: unknown LogicalRequest member',
    );
    assertShapeError(() => readLogicalRequest({ ...base(), b: 1, a: 1 }), '$.a: unknown LogicalRequest member');
  });

  test('an unknown member with a control character or lone surrogate shows it escaped', () => {
    assertShapeError(() => readLogicalRequest({ ...base(), 'a\nb': 1 }), '$.a\\u000ab: unknown LogicalRequest member');
    assertShapeError(() => readLogicalRequest({ ...base(), '\ud800': 1 }), '$.\\ud800: unknown LogicalRequest member');
  });

  test('unknown members are checked before required ones', () => {
    assertShapeError(() => readLogicalRequest({ extra: 1 }), '$.extra: unknown LogicalRequest member');
  });

  for (const member of ['principal', 'tool_id', 'tool_version', 'arguments']) {
    test(`missing ${member} is required`, () => {
      assertShapeError(() => readLogicalRequest(without(member)), `$.${member}: required`);
    });
  }

  test('required members are checked in order principal, tool_id, tool_version, arguments', () => {
    assertShapeError(() => readLogicalRequest({}), '$.principal: required');
    assertShapeError(() => readLogicalRequest({ principal: null }), '$.tool_id: required');
    assertShapeError(() => readLogicalRequest({ principal: null, tool_id: 't' }), '$.tool_version: required');
    assertShapeError(
      () => readLogicalRequest({ principal: null, tool_id: 't', tool_version: 'v' }),
      '$.arguments: required',
    );
  });

  test('principal must be a string or null', () => {
    for (const principal of [1, true, [], {}, new InexactNumber('1.5', 'fraction')]) {
      assertShapeError(() => readLogicalRequest({ ...base(), principal }), '$.principal: must be a string or null');
    }
  });

  test('tool_id and tool_version must be strings', () => {
    for (const bad of [null, 1, true, [], {}]) {
      assertShapeError(() => readLogicalRequest({ ...base(), tool_id: bad }), '$.tool_id: must be a string');
      assertShapeError(() => readLogicalRequest({ ...base(), tool_version: bad }), '$.tool_version: must be a string');
    }
  });

  test('tool_version 1 (number) is not "1"', () => {
    assertShapeError(
      () => readLogicalRequest(parseExactJson('{"principal":"a","tool_id":"t","tool_version":1,"arguments":{}}')),
      '$.tool_version: must be a string',
    );
  });

  test('arguments must be a JSON object', () => {
    const bad: unknown[] = [[], [1], 'x', null, 1, true, new InexactNumber('1e400', 'range'), new Date(0), new Map()];
    for (const args of bad) {
      assertShapeError(() => readLogicalRequest({ ...base(), arguments: args }), '$.arguments: must be a JSON object');
    }
  });

  test('an InexactNumber parsed as arguments is not an object', () => {
    assertShapeError(
      () => readLogicalRequest(parseExactJson('{"principal":"a","tool_id":"t","tool_version":"1","arguments":1.5}')),
      '$.arguments: must be a JSON object',
    );
  });

  test('empty arguments are fine', () => {
    const request = readLogicalRequest({ ...base(), arguments: {} });
    assert.deepEqual(request.arguments, {});
  });

  test('the Python CLI example request (both opaque fields absent) is accepted', () => {
    const request = readLogicalRequest(
      parseExactJson('{"principal":"alice","tool_id":"create_issue","tool_version":"1","arguments":{"title":"spec"}}'),
    );
    assert.equal(request.tool_version, '1');
    assert.equal(request.continuation_state, null);
    assert.equal(request.input_responses, null);
  });
});

describe('readNamedRequest', () => {
  test('a plain LogicalRequest has no name', () => {
    const named = readNamedRequest(parseExactJson(VECTOR_00_LINE));
    assert.equal(named.name, null);
    assert.equal(requestFingerprint(KEY, named.request), VECTOR_00_DIGEST);
  });

  test('a named entry has its name and request', () => {
    const named = readNamedRequest(parseExactJson(`{"name":"00","request":${VECTOR_00_LINE}}`));
    assert.equal(named.name, '00');
    assert.equal(requestFingerprint(KEY, named.request), VECTOR_00_DIGEST);
  });

  test('member order does not matter', () => {
    const named = readNamedRequest(parseExactJson(`{"request":${VECTOR_00_LINE},"name":"x"}`));
    assert.equal(named.name, 'x');
  });

  test('an empty name and a non-ASCII name are allowed', () => {
    assert.equal(readNamedRequest({ name: '', request: base() }).name, '');
    assert.equal(readNamedRequest({ name: 'é 😀 名', request: base() }).name, 'é 😀 名');
  });

  test('not an object', () => {
    for (const value of [null, 1, 'x', true, [], [base()], new InexactNumber('2', 'range'), undefined]) {
      assertShapeError(() => readNamedRequest(value), 'a line must hold a JSON object');
    }
  });

  test('a named entry must have exactly name and request', () => {
    const message = 'a named entry must have exactly the members "name" and "request"';
    assertShapeError(() => readNamedRequest({ request: base() }), message);
    assertShapeError(() => readNamedRequest({ name: 'n', request: base(), extra: 1 }), message);
    assertShapeError(() => readNamedRequest({ other: 'n', request: base() }), message);
    assertShapeError(() => readNamedRequest({ ...base(), request: base() }), message);
  });

  test('"name" without "request" is read as a LogicalRequest with an unknown member', () => {
    assertShapeError(() => readNamedRequest({ ...base(), name: 'n' }), '$.name: unknown LogicalRequest member');
  });

  test('the name must be a string', () => {
    for (const name of [null, 1, true, [], {}]) {
      assertShapeError(() => readNamedRequest({ name, request: base() }), '$.name: must be a string without control characters');
    }
  });

  test('a name with a control character is rejected', () => {
    for (const name of ['a\tb', 'a\nb', '\u0000', 'x\u001f', 'del\u007f']) {
      assertShapeError(
        () => readNamedRequest({ name, request: base() }),
        '$.name: must be a string without control characters',
      );
    }
  });

  test('a name with a lone surrogate is rejected', () => {
    for (const name of ['\ud800', 'a\udc00b']) {
      assert.throws(
        () => readNamedRequest({ name, request: base() }),
        (err: unknown) => err instanceof CanonicalJsonError && err.message === `$.name: ${UNPAIRED_SURROGATE}`,
      );
    }
  });

  test('the request of a named entry follows the LogicalRequest rules', () => {
    assertShapeError(() => readNamedRequest({ name: 'n', request: [] }), 'a LogicalRequest must be a JSON object');
    assertShapeError(() => readNamedRequest({ name: 'n', request: without('tool_id') }), '$.tool_id: required');
    assertShapeError(
      () => readNamedRequest({ name: 'n', request: { ...base(), arguments: 'x' } }),
      '$.arguments: must be a JSON object',
    );
  });

  test('the name is checked before the request', () => {
    assertShapeError(() => readNamedRequest({ name: 1, request: [] }), '$.name: must be a string without control characters');
  });
});

describe('readName', () => {
  test('a plain request has no name; a named entry gives its name', () => {
    assert.equal(readName(base()), null);
    assert.equal(readName({ name: 'n', request: base() }), 'n');
  });

  test('checks only the envelope, not the request inside', () => {
    assert.equal(readName({ name: 'n', request: [] }), 'n');
    assert.equal(readName({ request: null, name: 'm' }), 'm');
  });

  test('applies the same envelope rules as readNamedRequest', () => {
    assertShapeError(() => readName([]), 'a line must hold a JSON object');
    assertShapeError(() => readName({ request: base() }), 'a named entry must have exactly the members "name" and "request"');
    assertShapeError(() => readName({ name: 'a\u0007', request: base() }), '$.name: must be a string without control characters');
  });
});

describe('the fingerprint key', () => {
  test(`fewer than ${MIN_KEY_BYTES} bytes is a RangeError`, () => {
    assert.equal(MIN_KEY_BYTES, 32);
    assert.equal(SHORT_KEY, 'fingerprint key must contain at least 32 bytes');
    for (const length of [0, 1, 16, 31]) {
      assert.throws(
        () => FingerprintKey.of(new Uint8Array(length)),
        (err: unknown) => err instanceof RangeError && err.message === 'fingerprint key must contain at least 32 bytes',
        `${length} bytes`,
      );
    }
  });

  test('32 and more bytes are accepted', () => {
    assert.ok(FingerprintKey.of(new Uint8Array(32)) instanceof FingerprintKey);
    assert.ok(FingerprintKey.of(new Uint8Array(64)) instanceof FingerprintKey);
  });

  test('the key check comes before any look at the request', () => {
    // A short key fails on its own; there is no way to reach requestFingerprint without a valid key.
    assert.throws(() => FingerprintKey.of(Buffer.alloc(31, 1)), { name: 'RangeError', message: SHORT_KEY });
  });

  test('the key bytes are copied, so later changes to the caller buffer do not change digests', () => {
    const bytes = Buffer.from('test-only-cross-language-key-32b', 'ascii');
    const key = FingerprintKey.of(bytes);
    bytes.fill(0);
    assert.equal(requestFingerprint(key, readLogicalRequest(parseExactJson(VECTOR_00_LINE))), VECTOR_00_DIGEST);
  });

  test('the key never shows up in its string or JSON forms', () => {
    const key = FingerprintKey.of(Buffer.from('test-only-cross-language-key-32b', 'ascii'));
    assert.equal(String(key), 'FingerprintKey[redacted]');
    assert.ok(!JSON.stringify(key).includes('test-only'));
    assert.ok(!JSON.stringify(key).includes('746573742d6f6e6c79'));
  });
});

describe('requestFingerprint guards the shape of requests built in code', () => {
  test('arguments that are not a plain object are rejected', () => {
    for (const args of [[], null, 'x', new Date(0)]) {
      assert.throws(
        () => requestFingerprint(KEY, { ...readLogicalRequest(base()), arguments: args as unknown as Record<string, unknown> }),
        (err: unknown) => err instanceof CanonicalJsonError && err.message === '$.arguments: must be a JSON object',
      );
    }
  });

  test('a non-string tool_id or tool_version, or a bad principal, is rejected', () => {
    const ok = readLogicalRequest(base());
    assert.throws(() => requestFingerprint(KEY, { ...ok, tool_id: 1 as unknown as string }), {
      message: '$.tool_id: must be a string',
    });
    assert.throws(() => requestFingerprint(KEY, { ...ok, tool_version: null as unknown as string }), {
      message: '$.tool_version: must be a string',
    });
    assert.throws(() => requestFingerprint(KEY, { ...ok, principal: 5 as unknown as string }), {
      message: '$.principal: must be a string or null',
    });
  });
});
