/**
 * The canonicaliser and fingerprint as they were before the fast path (a walk in canonical order building every
 * path, arrays of strings joined, a Buffer.concat per HMAC, the key imported per HMAC), kept verbatim as the oracle
 * the differential test compares against: same text, same digest, same error.
 */
import { createHash, createHmac } from 'node:crypto';
import { CanonicalJsonError } from '../src/canonical-json.js';
import { InexactNumber } from '../src/exact-json.js';
import { isPlainObject, type LogicalRequest, type OpaqueField } from '../src/fingerprint.js';
import { hasUnpairedSurrogate, pathSegment, UNPAIRED_SURROGATE } from '../src/unicode.js';

const MAX_CANONICAL_DEPTH = 1000;
const NOT_AN_INTEGER = 'number must be an integer in the interoperable safe range';
const OUTSIDE_SAFE_RANGE = 'integer is outside the interoperable safe range';


export function referenceCanonicalJson(value: unknown, path = '$'): string {
  return emit(value, path, 0);
}

/** Orders strings by Unicode scalar value, which differs from UTF-16 code-unit order above U+D7FF. */
export function referenceCompareCodePoints(a: string, b: string): number {
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
function requireScalarValues(text: string, path: string): void {
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
  for (const key of Object.keys(record).sort(referenceCompareCodePoints)) {
    const memberPath = path + pathSegment(key);
    requireScalarValues(key, memberPath);
    const member = record[key];
    if (member === undefined) throw new CanonicalJsonError(`${memberPath}: undefined is not JSON`);
    members.push(`${JSON.stringify(key)}:${emit(member, memberPath, inner)}`);
  }
  return `{${members.join(',')}}`;
}

/** HMAC-SHA256(key, field || 0x00 || canonical(value)); a missing value binds as null. */
function bindOpaqueField(keyBytes: Buffer, field: OpaqueField, value: unknown): string {
  const canonical = referenceCanonicalJson(value === undefined ? null : value, `$.${field}`);
  return createHmac('sha256', keyBytes).update(Buffer.concat([Buffer.from(field, 'utf8'), Buffer.of(0), Buffer.from(canonical, 'utf8')])).digest('hex');
}

export function referenceFingerprint(key: Buffer, request: LogicalRequest): string {
  if (typeof request.tool_id !== 'string') throw new CanonicalJsonError('$.tool_id: must be a string');
  if (typeof request.tool_version !== 'string') throw new CanonicalJsonError('$.tool_version: must be a string');
  if (request.principal !== null && typeof request.principal !== 'string') {
    throw new CanonicalJsonError('$.principal: must be a string or null');
  }
  const args: unknown = request.arguments;
  if (!isPlainObject(args)) throw new CanonicalJsonError('$.arguments: must be a JSON object');
  const payload = {
    principal: request.principal,
    tool_id: request.tool_id,
    tool_version: request.tool_version,
    arguments: args,
    continuation_state: bindOpaqueField(key, 'continuation_state', request.continuation_state),
    input_responses: bindOpaqueField(key, 'input_responses', request.input_responses),
  };
  return createHash('sha256').update(referenceCanonicalJson(payload), 'utf8').digest('hex');
}
