/**
 * The requestState of the conformance profile's multi-round fixtures, sealed with the SDK's HMAC codec under the
 * fixture's own state key. The codec binds the principal; the payload binds the rest: the method and the name the
 * state was minted for, a digest of that request's arguments, and an expiry on the machine's real clock. The codec's
 * own expiry reads Date.now, which the guarded tools pin to WIRE_CLOCK_EPOCH, so it cannot be the fixtures' expiry:
 * a checker has to be able to wait a state out.
 *
 * Every refusal throws; the SDK answers any throw from its verify hook with the frozen
 * `-32602 "Invalid or expired requestState"` before a handler runs.
 */
import { createHash } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { isCanonicalToken } from './bound-request-state.js';
import { canonicalJson } from './canonical-json.js';
import { isPlainObject } from './fingerprint.js';

/**
 * Far above any state the fixtures mint (a few hundred characters), far below the 4 MiB body limit: a longer state is
 * refused before its MAC is computed.
 */
export const MAX_FIXTURE_STATE_CHARS = 8192;
// Keeps the bind tag apart from the guarded tools' (which bind the bare principal) although the key is the same, so
// neither kind of state opens as the other even before the payload checks.
const BIND_DOMAIN = 'conformance-fixture\u0000';

/** The request a state is presented with, as the fixture read it from the body before the SDK saw it. */
export interface SealedCall {
  readonly method: string;
  readonly name: unknown;
  readonly arguments: unknown;
}

export interface FixturePayload {
  readonly method: string;
  readonly name: string;
  readonly arguments_digest: string;
  readonly expires_at: number;
  /** The fixture's own progress (its round, what earlier rounds answered); opaque to this module. */
  readonly data: unknown;
}

export interface FixtureStateOptions {
  readonly key: Uint8Array;
  readonly ttlSeconds: number;
  /** Whole epoch seconds; the real clock in production, a test's own in tests. */
  readonly now: () => number;
}

export class FixtureStateRefused extends Error {}

/** SHA-256 hex of the canonical JSON of a request's arguments; absent arguments count as `{}`. */
export function fixtureArgumentsDigest(args: unknown): string {
  const value = args === undefined ? {} : args;
  if (!isPlainObject(value)) throw new FixtureStateRefused('arguments are not an object');
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

function principalOf(ctx: ServerContext): string {
  const principal = ctx.http?.authInfo?.clientId;
  // Every request reaching the SDK has one; a missing principal is a bug, so refuse rather than bind ''.
  if (principal === undefined) throw new FixtureStateRefused('no principal on this request');
  return principal;
}

export class FixtureStates {
  readonly #codec: RequestStateCodec<unknown>;
  readonly #ttlSeconds: number;
  readonly #now: () => number;

  constructor(options: FixtureStateOptions) {
    this.#ttlSeconds = options.ttlSeconds;
    this.#now = options.now;
    this.#codec = createRequestStateCodec<unknown>({
      key: options.key,
      ttlSeconds: options.ttlSeconds,
      bind: (ctx) => BIND_DOMAIN + principalOf(ctx),
    });
  }

  /** A state for the next round of `call`, carrying `data`. */
  async seal(call: { method: string; name: string; arguments: unknown }, data: unknown, ctx: ServerContext): Promise<string> {
    const payload: FixturePayload = {
      method: call.method,
      name: call.name,
      arguments_digest: fixtureArgumentsDigest(call.arguments),
      expires_at: this.#now() + this.#ttlSeconds,
      data,
    };
    return this.#codec.mint(payload, ctx);
  }

  /** The payload of `state` if it was minted for this principal, method, name and arguments and has not expired. */
  async open(state: string, ctx: ServerContext, call: SealedCall | undefined): Promise<FixturePayload> {
    if (state.length > MAX_FIXTURE_STATE_CHARS) throw new FixtureStateRefused('oversized');
    // atob, inside the codec, reads many spellings of one signature; only the one the codec mints may open.
    if (!isCanonicalToken(state)) throw new FixtureStateRefused('not the canonical spelling of a token');
    const payload = readFixturePayload(await this.#codec.verify(state, ctx));
    if (call === undefined) throw new FixtureStateRefused('no recorded request');
    if (call.method !== payload.method || call.name !== payload.name) throw new FixtureStateRefused('minted for another request');
    if (fixtureArgumentsDigest(call.arguments) !== payload.arguments_digest) {
      throw new FixtureStateRefused('minted for other arguments');
    }
    if (payload.expires_at <= this.#now()) throw new FixtureStateRefused('expired');
    return payload;
  }
}

function readFixturePayload(value: unknown): FixturePayload {
  if (
    !isPlainObject(value) ||
    typeof value['method'] !== 'string' ||
    typeof value['name'] !== 'string' ||
    typeof value['arguments_digest'] !== 'string' ||
    typeof value['expires_at'] !== 'number' ||
    !('data' in value)
  ) {
    throw new FixtureStateRefused('payload');
  }
  return value as unknown as FixturePayload;
}
