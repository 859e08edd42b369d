/**
 * A strict RFC 8259 parser that never rounds a number.
 *
 * JSON.parse turns 9007199254740993 into 9007199254740992 and 1.0000000000000000001 into 1, which would let the
 * TypeScript fingerprint accept inputs the Java side (which parses numbers exactly) rejects. This parser decides
 * from the literal's digits whether it denotes a safe integer; a literal that does not is kept as an
 * {@link InexactNumber} so the canonicaliser can reject it with its JSON path.
 */

import { hasUnpairedSurrogate, pathSegment, UNPAIRED_SURROGATE_IN_KEY } from './unicode.js';

export const MAX_PARSE_DEPTH = 1100;
export const MAX_NUMBER_LITERAL_LENGTH = 1000;
const MAX_SAFE = 9007199254740991n;

/** A number literal that is not exactly an integer within ±(2^53−1). */
export class InexactNumber {
  constructor(
    readonly literal: string,
    readonly kind: 'fraction' | 'range',
  ) {}
}

export type JsonValue = null | boolean | number | string | InexactNumber | JsonValue[] | { [key: string]: JsonValue };

export class JsonSyntaxError extends Error {}

/** Valid JSON syntax holding a value no fingerprint can bind; the message names the JSON path. */
export class JsonValueError extends Error {}

const NUMBER_TOKEN = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const NUMBER_PARTS = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

export function parseExactJson(text: string): JsonValue {
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.value(0, '$');
  parser.skipWhitespace();
  if (parser.pos !== text.length) parser.fail('unexpected content after the JSON value');
  return value;
}

/** Exact value of a JSON number literal: a safe integer, or the reason it is not one. */
export function classifyNumberLiteral(literal: string): number | InexactNumber {
  const parts = NUMBER_PARTS.exec(literal);
  if (parts === null) throw new JsonSyntaxError(`invalid JSON: malformed number ${literal}`);
  const fraction = parts[3] ?? '';
  let digits = (parts[2] + fraction).replace(/^0+/, '');
  if (digits === '') return 0; // every spelling of zero, -0 included, is the integer 0
  let exponent = BigInt(parts[4] ?? '0') - BigInt(fraction.length);
  const withoutTrailingZeros = digits.replace(/0+$/, '');
  exponent += BigInt(digits.length - withoutTrailingZeros.length);
  digits = withoutTrailingZeros;
  if (exponent < 0n) return new InexactNumber(literal, 'fraction');
  // 2^53−1 has 16 digits; anything longer is out of range without computing 10^exponent.
  if (BigInt(digits.length) + exponent > 16n) return new InexactNumber(literal, 'range');
  const magnitude = BigInt(digits) * 10n ** exponent;
  if (magnitude > MAX_SAFE) return new InexactNumber(literal, 'range');
  const value = Number(magnitude);
  return parts[1] === '-' ? -value : value;
}

class Parser {
  pos = 0;

  constructor(private readonly text: string) {}

  fail(what: string): never {
    throw new JsonSyntaxError(`invalid JSON at offset ${this.pos}: ${what}`);
  }

  skipWhitespace(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  value(depth: number, path: string): JsonValue {
    const c = this.text[this.pos];
    switch (c) {
      case '{':
        return this.object(depth + 1, path);
      case '[':
        return this.array(depth + 1, path);
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      case undefined:
        return this.fail('unexpected end of input');
      default:
        if (c === '-' || (c >= '0' && c <= '9')) return this.number();
        return this.fail(`unexpected character ${JSON.stringify(c)}`);
    }
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`expected ${word}`);
    this.pos += word.length;
    return value;
  }

  private number(): number | InexactNumber {
    NUMBER_TOKEN.lastIndex = this.pos;
    const match = NUMBER_TOKEN.exec(this.text);
    if (match === null) return this.fail('malformed number');
    const literal = match[0];
    if (literal.length > MAX_NUMBER_LITERAL_LENGTH) {
      this.fail(`number literal longer than ${MAX_NUMBER_LITERAL_LENGTH} characters`);
    }
    this.pos += literal.length;
    return classifyNumberLiteral(literal);
  }

  private string(): string {
    const text = this.text;
    this.pos++; // opening quote
    let out = '';
    let runStart = this.pos;
    while (true) {
      if (this.pos >= text.length) this.fail('unterminated string');
      const c = text.charCodeAt(this.pos);
      if (c === 0x22) {
        out += text.slice(runStart, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail('unescaped control character in string');
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += text.slice(runStart, this.pos);
      const escape = text[this.pos + 1];
      switch (escape) {
        case '"':
        case '\\':
        case '/':
          out += escape;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = text.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid \\u escape');
          // A lone surrogate escape is kept as is; the canonicaliser rejects it with its path.
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        default:
          this.fail('invalid escape');
      }
      this.pos += 2;
      runStart = this.pos;
    }
  }

  private enter(depth: number): void {
    if (depth > MAX_PARSE_DEPTH) this.fail(`nesting deeper than ${MAX_PARSE_DEPTH} levels`);
    this.pos++;
    this.skipWhitespace();
  }

  private array(depth: number, path: string): JsonValue[] {
    this.enter(depth);
    const items: JsonValue[] = [];
    if (this.text[this.pos] === ']') {
      this.pos++;
      return items;
    }
    while (true) {
      items.push(this.value(depth, `${path}[${items.length}]`));
      this.skipWhitespace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === ']') return items;
      if (c !== ',') {
        this.pos--;
        this.fail('expected , or ] in array');
      }
      this.skipWhitespace();
    }
  }

  private object(depth: number, path: string): { [key: string]: JsonValue } {
    this.enter(depth);
    const members: { [key: string]: JsonValue } = {};
    if (this.text[this.pos] === '}') {
      this.pos++;
      return members;
    }
    while (true) {
      if (this.text[this.pos] !== '"') this.fail('expected a string key');
      const key = this.string();
      // Jackson refuses such a key while parsing, so this side does too, naming the same path (the object's).
      if (hasUnpairedSurrogate(key)) throw new JsonValueError(`${path}: ${UNPAIRED_SURROGATE_IN_KEY}`);
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') this.fail('expected : after key');
      this.pos++;
      this.skipWhitespace();
      const value = this.value(depth, path + pathSegment(key));
      // "__proto__" is data here, as with JSON.parse; a later duplicate key replaces an earlier one.
      Object.defineProperty(members, key, { value, enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === '}') return members;
      if (c !== ',') {
        this.pos--;
        this.fail('expected , or } in object');
      }
      this.skipWhitespace();
    }
  }
}
