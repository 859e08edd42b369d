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
  return canonicalAt(value, path, 0);
}

/**
 * Canonical text of `value` found at `path`, `depth` levels below the value being canonicalised (the fingerprint
 * payload's `arguments` are one level down).
 *
 * Fast path: one walk ({@link prepare}) runs every check of {@link emit} and yields a value whose own member order is
 * canonical: the value itself when it already is, else a copy in which only the containers out of order (and those
 * above them) are new. JSON.stringify then writes it natively: for well-formed strings it escapes exactly the
 * contract's set, and it writes safe integers (and -0 as 0) as the contract does. When the walk finds a problem, or a
 * value JSON.stringify could treat differently, {@link emit} runs in canonical order, so the text and the error
 * reported (message, path, and which of several) are exactly what they always were.
 */
export function canonicalAt(value: unknown, path: string, depth: number): string {
  const ordered = prepare(value, depth);
  if (ordered === FALLBACK || prototypesHaveToJson()) return emit(value, path, depth);
  const text = JSON.stringify(ordered);
  // Unpaired surrogates are checked here, once, on the output: JSON.stringify writes one (in a string or a key) as
  // a lowercase \udXXX escape, so text without "\ud" has none. A "\ud" may also be an escaped backslash before a
  // literal "ud"; either way the reference walk decides.
  if (text.includes('\\ud')) return emit(value, path, depth);
  return text;
}

/** Orders strings by Unicode scalar value, which differs from UTF-16 code-unit order above U+D7FF. */
export function compareCodePoints(a: string, b: string): number {
  const shorter = a.length < b.length ? a.length : b.length;
  let i = 0;
  while (i < shorter && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === shorter) return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  const ca = a.charCodeAt(i);
  const cb = b.charCodeAt(i);
  // Below U+D800 a code unit is its own code point, and no pair straddles i (a[i] is no low surrogate).
  if (ca < 0xd800 && cb < 0xd800) return ca < cb ? -1 : 1;
  // Resume by code point where the code point holding i starts: a high surrogate just before i (equal in both).
  const prior = i > 0 ? a.charCodeAt(i - 1) : 0;
  return compareCodePointsFrom(a, b, prior >= 0xd800 && prior <= 0xdbff ? i - 1 : i);
}

function compareCodePointsFrom(a: string, b: string, from: number): number {
  let i = from;
  let j = from;
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
  if (!isWellFormed(text)) throw new CanonicalJsonError(`${path}: ${UNPAIRED_SURROGATE}`);
}

/** String.prototype.isWellFormed (ES2024, node 20+), or the same test in JS where it is missing. */
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

function isWellFormed(text: string): boolean {
  return nativeIsWellFormed !== undefined ? nativeIsWellFormed.call(text) : !hasUnpairedSurrogate(text);
}

/** What {@link prepare} returns for a value {@link emit} rejects or that the fast path leaves to it. */
const FALLBACK = Symbol('fallback');

/** JSON.stringify would call a toJSON found on these prototypes; then the reference walk writes everything. */
function prototypesHaveToJson(): boolean {
  return (Object.prototype as { toJSON?: unknown }).toJSON !== undefined
    || (Array.prototype as { toJSON?: unknown }).toJSON !== undefined;
}

/**
 * FALLBACK when `value` fails any check {@link emit} makes but the one for unpaired surrogates (the same checks; their
 * order does not matter here, only whether one fails), or holds an object whose members must be reordered but one of whose keys is an array index
 * (engines enumerate those first, whatever the insertion order). Otherwise a value whose enumeration order is the
 * canonical order: `value` itself, or a copy sharing every subtree that is already in order.
 */
function prepare(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      return Number.isSafeInteger(value) ? value : FALLBACK;
    case 'string':
      return value; // unpaired surrogates: see canonicalAt
    case 'object':
      break;
    default:
      return FALLBACK;
  }
  if (value === null) return value;
  // An InexactNumber (or any other class instance) fails the prototype test below.
  if (depth + 1 > MAX_CANONICAL_DEPTH) return FALLBACK;
  if (Array.isArray(value)) {
    // A plain copy of an array whose prototype is not Array.prototype: JSON.stringify would honour its toJSON.
    let copy: unknown[] | null = Object.getPrototypeOf(value) === Array.prototype ? null : new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return FALLBACK;
      const original: unknown = value[i];
      const item = prepare(original, depth + 1);
      if (item === FALLBACK) return FALLBACK;
      if (item !== original && copy === null) copy = value.slice(0, i);
      if (copy !== null) copy[i] = item;
    }
    return copy ?? value;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return FALLBACK;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Object.values reads the members natively, in the same order as Object.keys (much cheaper than record[key]).
  const values = Object.values(record);
  const n = keys.length;
  if (values.length !== n) return FALLBACK;
  let members: unknown[] | null = null;
  let inOrder = true;
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    const original = values[i];
    if (original === undefined) return FALLBACK;
    const member = prepare(original, depth + 1);
    if (member === FALLBACK) return FALLBACK;
    if (inOrder && i > 0 && compareCodePoints(keys[i - 1]!, key) > 0) inOrder = false;
    if (members === null && (member !== original || !inOrder)) {
      members = values.slice(0, i);
    }
    if (members !== null) members[i] = member;
  }
  if (members === null) return value;
  const copy: Record<string, unknown> = {};
  if (inOrder) {
    // The same order as the original, which enumerates as the canonical order; only some members are copies.
    for (let i = 0; i < n; i++) put(copy, keys[i]!, members[i]);
    return copy;
  }
  const order = sortedPositions(keys);
  for (const i of order) {
    if (isArrayIndex(keys[i]!)) return FALLBACK;
  }
  for (const i of order) put(copy, keys[i]!, members[i]);
  return copy;
}

/** Adds a member; `__proto__` as a plain data member, as JSON.parse makes it, not as the prototype. */
function put(copy: Record<string, unknown>, key: string, member: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
  } else {
    copy[key] = member;
  }
}

/** Positions of `keys` in code-point order of the keys: insertion sort for the usual handful, else Array sort. */
function sortedPositions(keys: string[]): number[] {
  const order = new Array<number>(keys.length);
  for (let i = 0; i < keys.length; i++) order[i] = i;
  if (keys.length > 16) return order.sort((a, b) => compareCodePoints(keys[a]!, keys[b]!));
  for (let i = 1; i < order.length; i++) {
    const at = order[i]!;
    let j = i - 1;
    while (j >= 0 && compareCodePoints(keys[order[j]!]!, keys[at]!) > 0) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = at;
  }
  return order;
}

/** An array index as a property key ("0" … "4294967294"). */
function isArrayIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  if (!(first >= 0x30 && first <= 0x39)) return false;
  return /^(?:0|[1-9][0-9]{0,9})$/.test(key) && Number(key) <= 4294967294;
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

/**
 * The reference walk, in canonical order, building the path of every value: what the fast path falls back to when
 * its walk finds a problem, so that errors are reported exactly as before.
 */
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
