/**
 * Canonical JSON text of the fingerprint contract (seed spec §2.3): code-point key order, safe integers only,
 * minimal escapes, no whitespace, unpaired surrogates rejected. The Java twin is
 * lab.continuationreplay.vectors.CanonicalJson; both must produce the same text and the same messages.
 */
import { InexactNumber } from './exact-json.js';
import { hasUnpairedSurrogate, pathSegment, UNPAIRED_SURROGATE } from './unicode.js';

export const MAX_CANONICAL_DEPTH = 1000;

export const NOT_AN_INTEGER = 'number must be an integer in the interoperable safe range';
export const OUTSIDE_SAFE_RANGE = 'integer is outside the interoperable safe range';
export { pathSegment, UNPAIRED_SURROGATE } from './unicode.js';

export class CanonicalJsonError extends Error {}

export function canonicalJson(value: unknown, path = '$'): string {
  return emit(value, path, 0);
}

/** Orders strings by Unicode scalar value, which differs from UTF-16 code-unit order above U+D7FF. */
export function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(j)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  if (i >= a.length) return j >= b.length ? 0 : -1;
  return 1;
}

/** Throws unless every UTF-16 surrogate in `text` is part of a valid pair. */
export function requireScalarValues(text: string, path: string): void {
  if (hasUnpairedSurrogate(text)) throw new CanonicalJsonError(`${path}: ${UNPAIRED_SURROGATE}`);
}

function emitNumber(n: number, path: string): string {
  if (!Number.isInteger(n)) throw new CanonicalJsonError(`${path}: ${NOT_AN_INTEGER}`);
  if (!Number.isSafeInteger(n)) throw new CanonicalJsonError(`${path}: ${OUTSIDE_SAFE_RANGE}`);
  return Object.is(n, -0) ? '0' : String(n);
}

function enter(depth: number, path: string): number {
  if (depth + 1 > MAX_CANONICAL_DEPTH) {
    throw new CanonicalJsonError(`${path}: nesting deeper than ${MAX_CANONICAL_DEPTH} levels`);
  }
  return depth + 1;
}

function emit(value: unknown, path: string, depth: number): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return emitNumber(value, path);
    case 'string':
      requireScalarValues(value, path);
      // With scalar values guaranteed, JSON.stringify escapes exactly the contract's set (lowercase \u00xx).
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(`${path}: unsupported JSON value ${typeof value}`);
  }
  if (value instanceof InexactNumber) {
    throw new CanonicalJsonError(`${path}: ${value.kind === 'fraction' ? NOT_AN_INTEGER : OUTSIDE_SAFE_RANGE}`);
  }
  if (Array.isArray(value)) {
    const inner = enter(depth, path);
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) throw new CanonicalJsonError(`${path}[${i}]: sparse arrays are not JSON`);
      items.push(emit(value[i], `${path}[${i}]`, inner));
    }
    return `[${items.join(',')}]`;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new CanonicalJsonError(`${path}: only plain JSON objects are supported`);
  }
  const inner = enter(depth, path);
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort(compareCodePoints)) {
    const memberPath = path + pathSegment(key);
    requireScalarValues(key, memberPath);
    const member = record[key];
    if (member === undefined) throw new CanonicalJsonError(`${memberPath}: undefined is not JSON`);
    members.push(`${JSON.stringify(key)}:${emit(member, memberPath, inner)}`);
  }
  return `{${members.join(',')}}`;
}
