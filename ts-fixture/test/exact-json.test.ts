/**
 * The strict, exact JSON parser: RFC 8259 syntax only, numbers never rounded.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  classifyNumberLiteral,
  InexactNumber,
  JsonSyntaxError,
  JsonValueError,
  MAX_PARSE_DEPTH,
  parseExactJson,
  type JsonValue,
} from '../src/exact-json.js';

function assertSyntaxError(text: string, fragment?: string): void {
  assert.throws(
    () => parseExactJson(text),
    (err: unknown) => {
      assert.ok(err instanceof JsonSyntaxError, `${JSON.stringify(text)}: expected JsonSyntaxError, got ${String(err)}`);
      assert.ok(err.message.startsWith('invalid JSON'), err.message);
      if (fragment !== undefined) assert.ok(err.message.includes(fragment), `${JSON.stringify(text)}: ${err.message}`);
      return true;
    },
    JSON.stringify(text),
  );
}

function assertInexact(value: unknown, literal: string, kind: 'fraction' | 'range'): void {
  assert.ok(value instanceof InexactNumber, `${literal}: expected InexactNumber, got ${String(value)}`);
  assert.equal(value.literal, literal);
  assert.equal(value.kind, kind);
}

describe('parseExactJson: valid input', () => {
  test('all value kinds', () => {
    assert.deepEqual(parseExactJson('{"a":[1,-2,true,false,null,"s",{}],"b":{"c":[]}}'), {
      a: [1, -2, true, false, null, 's', {}],
      b: { c: [] },
    });
  });

  test('scalars at the top level, with the four JSON whitespace characters around them', () => {
    assert.equal(parseExactJson(' \t\r\n42 \t\r\n'), 42);
    assert.equal(parseExactJson('"x"'), 'x');
    assert.equal(parseExactJson('true'), true);
    assert.equal(parseExactJson('false'), false);
    assert.equal(parseExactJson('null'), null);
  });

  test('every escape decodes', () => {
    assert.equal(parseExactJson('"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0041 \\u00e9 \\u00E9 \\ud83d\\ude00"'), '" \\ / \b \f \n \r \t A é é \u{1F600}');
  });

  test('DEL and non-ASCII characters are allowed raw inside strings', () => {
    assert.equal(parseExactJson('"\u007f\u2028é\u{1F600}"'), '\u007f\u2028é\u{1F600}');
  });

  test('a lone surrogate escape is kept for the canonicaliser to reject', () => {
    assert.equal(parseExactJson('"\\ud800"'), '\ud800');
  });

  test('numbers that are safe integers become JS numbers', () => {
    assert.deepEqual(parseExactJson('[0,-0,1.0,1e2,9007199254740991,-9007199254740991]'), [
      0, 0, 1, 100, 9007199254740991, -9007199254740991,
    ]);
    assert.ok(Object.is((parseExactJson('[-0]') as number[])[0], 0), '-0 becomes +0');
  });

  test('numbers that are not safe integers are kept as InexactNumber', () => {
    const [fraction, range, tiny] = parseExactJson('[1.5,9007199254740993,1e-400]') as JsonValue[];
    assertInexact(fraction, '1.5', 'fraction');
    assertInexact(range, '9007199254740993', 'range');
    assertInexact(tiny, '1e-400', 'fraction');
  });

  test('duplicate keys: the last one wins', () => {
    assert.deepEqual(parseExactJson('{"a":1,"b":2,"a":3}'), { a: 3, b: 2 });
    const value = parseExactJson('{"a":1,"a":{"x":true}}') as Record<string, unknown>;
    assert.deepEqual(value['a'], { x: true });
    assert.equal(Object.keys(value).length, 1);
  });

  test('"__proto__" becomes an own data property and does not change the prototype', () => {
    const value = parseExactJson('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    assert.ok(Object.hasOwn(value, '__proto__'));
    assert.deepEqual(Object.keys(value), ['__proto__', 'a']);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(value, '__proto__')?.value, { polluted: true });
    assert.equal((value as { polluted?: unknown }).polluted, undefined);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  });

  test('a duplicate "__proto__" key also follows last-one-wins', () => {
    const value = parseExactJson('{"__proto__":1,"__proto__":2}') as Record<string, unknown>;
    assert.equal(Object.getOwnPropertyDescriptor(value, '__proto__')?.value, 2);
  });

  test(`nesting of exactly ${MAX_PARSE_DEPTH} levels parses`, () => {
    assert.equal(MAX_PARSE_DEPTH, 1100);
    let value = parseExactJson('['.repeat(1100) + ']'.repeat(1100));
    let depth = 0;
    while (Array.isArray(value)) {
      depth++;
      value = value.length === 0 ? null : (value[0] as JsonValue);
    }
    assert.equal(depth, 1100);
  });
});

describe('parseExactJson: object keys with unpaired surrogates', () => {
  const KEY_MESSAGE = 'object key with an unpaired UTF-16 surrogate is not valid Unicode';

  function assertKeyError(text: string, message: string): void {
    assert.throws(
      () => parseExactJson(text),
      (err: unknown) => {
        assert.ok(err instanceof JsonValueError, `expected JsonValueError, got ${String(err)}`);
        assert.ok(!(err instanceof JsonSyntaxError));
        assert.equal(err.message, message);
        return true;
      },
    );
  }

  test('are rejected while parsing, naming the path of the object that holds the key', () => {
    assertKeyError('{"\\ud800":1}', `$: ${KEY_MESSAGE}`);
    assertKeyError('{"a":{"x\\udc00":1}}', `$.a: ${KEY_MESSAGE}`);
    assertKeyError('[0,{"\\ud83d":1}]', `$[1]: ${KEY_MESSAGE}`);
    assertKeyError('{"arguments":{"list":[{"ok":1},{"\\ude00\\ud83d":2}]}}', `$.arguments.list[1]: ${KEY_MESSAGE}`);
  });

  test('a raw (unescaped) lone surrogate in a key is rejected too', () => {
    assertKeyError('{"a":{"\ud800":1}}', `$.a: ${KEY_MESSAGE}`);
  });

  test('a key with a valid surrogate pair, escaped or raw, is fine', () => {
    const value = parseExactJson('{"\\ud83d\\ude00":1,"\u{1F601}":2}') as Record<string, unknown>;
    assert.deepEqual(Object.keys(value), ['\u{1F600}', '\u{1F601}']);
  });

  test('a lone surrogate in a string value is left for the canonicaliser', () => {
    assert.deepEqual(parseExactJson('{"k":"\\ud800"}'), { k: '\ud800' });
  });
});

describe('parseExactJson: strict syntax rejections', () => {
  const cases: ReadonlyArray<[string, string, string?]> = [
    ['trailing comma in an array', '[1,]'],
    ['trailing comma in an object', '{"a":1,}', 'expected a string key'],
    ['line comment', '{"a":1 // c\n}'],
    ['block comment', '/* c */ {}'],
    ['single-quoted string', "{'a':1}", 'expected a string key'],
    ['single-quoted value', "['a']"],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['-Infinity', '-Infinity', 'malformed number'],
    ['leading zero', '01', 'unexpected content after the JSON value'],
    ['leading zero in an array', '[01]'],
    ['leading plus', '+1'],
    ['leading dot', '.5'],
    ['trailing dot', '1.', 'unexpected content after the JSON value'],
    ['exponent without digits', '1e', 'unexpected content after the JSON value'],
    ['minus alone', '-', 'malformed number'],
    ['hex number', '0x10', 'unexpected content after the JSON value'],
    ['unescaped newline in a string', '"a\nb"', 'unescaped control character in string'],
    ['unescaped tab in a string', '"a\tb"', 'unescaped control character in string'],
    ['unescaped NUL in a string', '"\u0000"', 'unescaped control character in string'],
    ['invalid escape \\x', '"\\x41"', 'invalid escape'],
    ['invalid escape \\a', '"\\a"', 'invalid escape'],
    ['short \\u escape', '"\\u12"', 'invalid \\u escape'],
    ['non-hex \\u escape', '"\\u12g4"', 'invalid \\u escape'],
    ['unterminated string', '"abc', 'unterminated string'],
    ['trailing content', '{} x', 'unexpected content after the JSON value'],
    ['two values', '1 2', 'unexpected content after the JSON value'],
    ['empty input', '', 'unexpected end of input'],
    ['whitespace only', ' \n\t ', 'unexpected end of input'],
    ['non-JSON whitespace (NBSP)', '\u00a0{}'],
    ['BOM before the value', '\ufeff{}'],
    ['unclosed array', '[1', 'expected , or ] in array'],
    ['unclosed object', '{"a":1', 'expected , or } in object'],
    ['missing colon', '{"a" 1}', 'expected : after key'],
    ['non-string key', '{1:2}', 'expected a string key'],
    ['bare word', 'nul', 'expected null'],
    ['capitalised literal', 'True'],
    ['missing value', '{"a":}'],
  ];
  for (const [name, text, fragment] of cases) {
    test(name, () => assertSyntaxError(text, fragment));
  }

  test(`nesting deeper than ${MAX_PARSE_DEPTH} levels is a syntax error`, () => {
    assertSyntaxError('['.repeat(1101) + ']'.repeat(1101), 'nesting deeper than 1100 levels');
    assertSyntaxError('{"a":'.repeat(1101) + '1' + '}'.repeat(1101), 'nesting deeper than 1100 levels');
  });

  test('very deep input fails cleanly instead of overflowing the stack', () => {
    assertSyntaxError('['.repeat(200000), 'nesting deeper than 1100 levels');
  });

  test('a number literal longer than 1000 characters is rejected', () => {
    assertSyntaxError('1' + '0'.repeat(1000), 'number literal longer than 1000 characters');
    // 1000 characters is still fine (and out of range).
    assertInexact(parseExactJson('1' + '0'.repeat(999)), '1' + '0'.repeat(999), 'range');
  });

  test('the message gives the offset', () => {
    assert.throws(() => parseExactJson('[1,]'), { message: 'invalid JSON at offset 3: unexpected character "]"' });
  });
});

describe('classifyNumberLiteral', () => {
  const integers: ReadonlyArray<[string, number]> = [
    ['0', 0],
    ['-0', 0],
    ['0.000', 0],
    ['0e5', 0],
    ['-0E-5', 0],
    ['1', 1],
    ['-1', -1],
    ['1e2', 100],
    ['1E+2', 100],
    ['1.50e1', 15],
    ['100e-2', 1],
    ['0.5e1', 5],
    ['-2.5E+1', -25],
    ['12.3400e2', 1234],
    ['1.0', 1],
    ['9007199254740991', 9007199254740991],
    ['9007199254740991.000', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
    ['9.007199254740991e15', 9007199254740991],
    ['900719925474099.1e1', 9007199254740991],
  ];
  for (const [literal, expected] of integers) {
    test(`${literal} -> ${expected}`, () => {
      const value = classifyNumberLiteral(literal);
      assert.equal(typeof value, 'number');
      assert.ok(Object.is(value, expected), `${literal}: got ${String(value)}`);
    });
  }

  const inexact: ReadonlyArray<[string, 'fraction' | 'range']> = [
    ['1.5', 'fraction'],
    ['-1.5', 'fraction'],
    ['1e-1', 'fraction'],
    ['1e-400', 'fraction'],
    ['0.1', 'fraction'],
    ['1.0000000000000000001', 'fraction'],
    ['9007199254740991.5', 'fraction'],
    ['9007199254740992', 'range'],
    ['-9007199254740992', 'range'],
    ['9007199254740993', 'range'],
    ['1e16', 'range'],
    ['1e400', 'range'],
    ['-1e400', 'range'],
    ['1e100000000000000000000', 'range'],
    ['12345678901234567', 'range'],
    ['9.007199254740992e15', 'range'],
  ];
  for (const [literal, kind] of inexact) {
    test(`${literal} -> ${kind}`, () => assertInexact(classifyNumberLiteral(literal), literal, kind));
  }

  test('1e15 (16 digits, below 2^53) is an integer', () => {
    assert.equal(classifyNumberLiteral('1e15'), 1e15);
  });

  test('a literal that is not a number is a JsonSyntaxError', () => {
    for (const literal of ['', 'abc', '1e', '--1', '1.']) {
      assert.throws(() => classifyNumberLiteral(literal), JsonSyntaxError, literal);
    }
  });
});
