/**
 * The keyed request fingerprint (seed spec §2.4–2.5), byte-identical to
 * lab.continuationreplay.vectors.RequestFingerprint in Java.
 */
import { createHash, createHmac } from 'node:crypto';
import { canonicalJson, CanonicalJsonError } from './canonical-json.js';

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

/** Secret HMAC key of at least 32 bytes; the bytes are copied and never printed. */
export class FingerprintKey {
  readonly #bytes: Buffer;

  private constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  static of(bytes: Uint8Array): FingerprintKey {
    if (bytes.length < MIN_KEY_BYTES) throw new RangeError(SHORT_KEY);
    return new FingerprintKey(Buffer.from(bytes));
  }

  hmacHex(message: Buffer): string {
    return createHmac('sha256', this.#bytes).update(message).digest('hex');
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
  return key.hmacHex(Buffer.concat([Buffer.from(field, 'utf8'), Buffer.of(0), Buffer.from(canonical, 'utf8')]));
}

export function requestFingerprint(key: FingerprintKey, request: LogicalRequest): string {
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
  return createHash('sha256').update(canonicalJson(payload), 'utf8').digest('hex');
}
