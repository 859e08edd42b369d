/**
 * The keyed request fingerprint (seed spec §2.4–2.5), byte-identical to
 * lab.continuationreplay.vectors.RequestFingerprint in Java.
 */
import * as crypto from 'node:crypto';
import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { canonicalAt, canonicalJson, CanonicalJsonError, requireScalarValues } from './canonical-json.js';

export { canonicalJson, CanonicalJsonError } from './canonical-json.js';

export const MIN_KEY_BYTES = 32;
export const SHORT_KEY = `fingerprint key must contain at least ${MIN_KEY_BYTES} bytes`;

/** The opaque fields, bound through HMAC in this order. */
export const OPAQUE_FIELDS = ['continuation_state', 'input_responses'] as const;
export type OpaqueField = (typeof OPAQUE_FIELDS)[number];

export interface LogicalRequest {
  principal: string | null;
  tool_id: string;
  tool_version: string;
  arguments: Record<string, unknown>;
  continuation_state?: unknown;
  input_responses?: unknown;
}

/**
 * Secret HMAC key of at least 32 bytes; the bytes are copied into a node KeyObject once (createSecretKey), so an
 * HMAC does not import the key again, and are never printed.
 */
export class FingerprintKey {
  readonly #key: KeyObject;

  private constructor(key: KeyObject) {
    this.#key = key;
  }

  static of(bytes: Uint8Array): FingerprintKey {
    if (bytes.length < MIN_KEY_BYTES) throw new RangeError(SHORT_KEY);
    return new FingerprintKey(createSecretKey(Buffer.from(bytes)));
  }

  /** Lowercase hex of HMAC-SHA256 over `message` (a string is taken as UTF-8). */
  hmacHex(message: Buffer | string): string {
    return createHmac('sha256', this.#key).update(message).digest('hex');
  }

  toString(): string {
    return 'FingerprintKey[redacted]';
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** HMAC-SHA256(key, field || 0x00 || canonical(value)); a missing value binds as null. */
export function bindOpaqueField(key: FingerprintKey, field: OpaqueField, value: unknown): string {
  const canonical = canonicalJson(value === undefined ? null : value, `$.${field}`);
  // One UTF-8 string: the field name, U+0000 (the byte 0x00) and the canonical text.
  return key.hmacHex(`${field}\u0000${canonical}`);
}

/** One-shot SHA-256 (crypto.hash, node 20.12+) where there is one, else a Hash object; lowercase hex. */
export const sha256Hex: (data: string | Buffer) => string =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) => createHash('sha256').update(data).digest('hex');

export function requestFingerprint(key: FingerprintKey, request: LogicalRequest): string {
  if (typeof request.tool_id !== 'string') throw new CanonicalJsonError('$.tool_id: must be a string');
  if (typeof request.tool_version !== 'string') throw new CanonicalJsonError('$.tool_version: must be a string');
  if (request.principal !== null && typeof request.principal !== 'string') {
    throw new CanonicalJsonError('$.principal: must be a string or null');
  }
  const args: unknown = request.arguments;
  if (!isPlainObject(args)) throw new CanonicalJsonError('$.arguments: must be a JSON object');
  const boundState = bindOpaqueField(key, 'continuation_state', request.continuation_state);
  const boundResponses = bindOpaqueField(key, 'input_responses', request.input_responses);
  // The payload's members are fixed, so its canonical text is written directly in code-point key order; the checks
  // and their order are those of canonicalising the payload object: arguments (one level down), then principal,
  // tool_id and tool_version (the bound fields are hex).
  const argumentsText = canonicalAt(args, '$.arguments', 1);
  let principalText = 'null';
  if (request.principal !== null) {
    requireScalarValues(request.principal, '$.principal');
    principalText = JSON.stringify(request.principal);
  }
  requireScalarValues(request.tool_id, '$.tool_id');
  requireScalarValues(request.tool_version, '$.tool_version');
  const payload = `{"arguments":${argumentsText},"continuation_state":"${boundState}","input_responses":"${boundResponses}",`
    + `"principal":${principalText},"tool_id":${JSON.stringify(request.tool_id)},"tool_version":${JSON.stringify(request.tool_version)}}`;
  return sha256Hex(payload);
}
