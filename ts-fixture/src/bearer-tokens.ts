/**
 * HTTP mode's principals: WIRE_BEARER_TOKENS_FILE is a JSON object principal → bearer token. A request's
 * `Authorization: Bearer <token>` names its principal; nothing else on the wire can. Messages name the variable and
 * the principal, never a token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { BEARER_TOKENS_FILE, ConfigurationError } from './trusted-environment.js';

export const MIN_TOKEN_CHARS = 32;
// RFC 6750's b64token, so every accepted token can travel in a header unchanged.
const TOKEN_SHAPE = /^[A-Za-z0-9\-._~+/]+=*$/;

export class BearerTokens {
  /** SHA-256 of each token, so comparisons take the same time whatever the token's length or prefix. */
  readonly #digests: ReadonlyArray<readonly [string, Buffer]>;

  constructor(tokens: ReadonlyMap<string, string>) {
    this.#digests = [...tokens].map(([principal, token]) => [principal, digest(token)] as const);
  }

  get principals(): string[] {
    return this.#digests.map(([principal]) => principal);
  }

  /** The principal an Authorization header authenticates, or undefined (no header, another scheme, unknown token). */
  principalFor(authorization: string | undefined): string | undefined {
    if (authorization === undefined) return undefined;
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (match === null) return undefined;
    const presented = digest(match[1]!);
    let found: string | undefined;
    // Every entry is compared, so the time does not tell which one matched.
    for (const [principal, known] of this.#digests) {
      if (timingSafeEqual(presented, known)) found = principal;
    }
    return found;
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Reads and validates the file; the first problem throws a ConfigurationError. */
export function readBearerTokens(path: string): BearerTokens {
  const shape = `${BEARER_TOKENS_FILE} must name a file holding a JSON object of principal to token`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new ConfigurationError(shape);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigurationError(shape);
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length === 0) throw new ConfigurationError(`${BEARER_TOKENS_FILE} names no principal`);
  const tokens = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const [principal, token] of entries) {
    if (principal === '') throw new ConfigurationError(`${BEARER_TOKENS_FILE} has an empty principal`);
    if (typeof token !== 'string' || token.length < MIN_TOKEN_CHARS || !TOKEN_SHAPE.test(token)) {
      throw new ConfigurationError(
        `${BEARER_TOKENS_FILE}: the token of principal ${JSON.stringify(principal)} must be a bearer token of at least ${MIN_TOKEN_CHARS} characters`,
      );
    }
    const owner = owners.get(token);
    // One token for two principals would make the principal depend on the file's order.
    if (owner !== undefined) {
      throw new ConfigurationError(
        `${BEARER_TOKENS_FILE}: principals ${JSON.stringify(owner)} and ${JSON.stringify(principal)} share a token`,
      );
    }
    owners.set(token, principal);
    tokens.set(principal, token);
  }
  return new BearerTokens(tokens);
}
