/**
 * The fixture's trusted configuration, read from its environment only (the WIRE_* names of DESIGN.md), never from
 * the wire. The twin of lab.continuationreplay.store.config.TrustedEnvironment: the same values are accepted and the
 * same messages name the variable, never its value.
 */

export const SERVER_DB = 'WIRE_SERVER_DB';
/** A PostgreSQL ledger: the bridge reads it (and its user and password); then WIRE_SERVER_DB may be absent. */
export const LEDGER_URL = 'WIRE_LEDGER_URL';
export const BACKEND_ID = 'WIRE_BACKEND_ID';
export const PRINCIPAL = 'WIRE_PRINCIPAL';
export const CLOCK_EPOCH = 'WIRE_CLOCK_EPOCH';
export const AUTHORITY_TTL = 'WIRE_AUTHORITY_TTL';
export const REPLAY_RETENTION_TTL = 'WIRE_REPLAY_RETENTION_TTL';
export const REQUEST_STATE_TTL = 'WIRE_REQUEST_STATE_TTL';
export const STATE_KEY_HEX = 'WIRE_STATE_KEY_HEX';
export const FINGERPRINT_KEY_HEX = 'WIRE_FINGERPRINT_KEY_HEX';
export const FAULT = 'WIRE_FAULT';
export const BEARER_TOKENS_FILE = 'WIRE_BEARER_TOKENS_FILE';
export const HTTP_READ_TIMEOUT_MS = 'WIRE_HTTP_READ_TIMEOUT_MS';
export const CONFORMANCE_STATE_TTL = 'WIRE_CONFORMANCE_STATE_TTL';

export const MIN_KEY_BYTES = 32;
const MAX_SAFE = 9007199254740991n;
const INT_MIN = -2147483648n;
const INT_MAX = 2147483647n;

/** The lab faults, in LabFault's order; each names the exit status the fixture or its bridge ends with. */
export const LAB_FAULTS = [
  'drop-after-commit',
  'exit-after-ledger-insert',
  'exit-after-issue-insert',
  'exit-after-partial-first-commit',
] as const;
/** HTTP adds a fault stdio cannot have: a stdio server has no connection to close while it keeps serving. */
export const HTTP_FAULTS = [...LAB_FAULTS, 'close-after-commit'] as const;
export type LabFault = (typeof HTTP_FAULTS)[number];
export const DEFAULT_HTTP_READ_TIMEOUT_MS = 10_000;
export const DEFAULT_CONFORMANCE_STATE_TTL = 60;

export interface FixtureConfig {
  readonly database: string;
  readonly backendId: string;
  readonly principal: string;
  readonly clockEpoch: number;
  readonly authorityTtl: number;
  readonly replayRetentionTtl: number;
  readonly requestStateTtl: number;
  readonly stateKey: Uint8Array;
  readonly fingerprintKey: Uint8Array;
  readonly fault: LabFault | null;
}

/** HTTP mode: no WIRE_PRINCIPAL (each request's bearer token names its principal), plus the HTTP settings. */
export interface HttpFixtureConfig extends Omit<FixtureConfig, 'principal'> {
  /** Null only under the conformance profile, which may serve without bearer tokens. */
  readonly bearerTokensFile: string | null;
  readonly readTimeoutMs: number;
}

/** The conformance profile's own setting: how long its fixtures' requestStates live, on the real clock. */
export interface ConformanceConfig {
  readonly stateTtl: number;
}

export class ConfigurationError extends Error {}

/**
 * HTTP mode's variables, in the same order as readConfig's, the HTTP ones last. Under the conformance profile the
 * tokens file is optional (the official suite cannot send a token).
 */
export function readHttpConfig(env: NodeJS.ProcessEnv, options: { conformance?: boolean } = {}): HttpFixtureConfig {
  return {
    database: database(env),
    backendId: required(env, BACKEND_ID),
    clockEpoch: clockEpoch(env),
    authorityTtl: positiveSeconds(env, AUTHORITY_TTL),
    replayRetentionTtl: positiveSeconds(env, REPLAY_RETENTION_TTL),
    requestStateTtl: positiveSeconds(env, REQUEST_STATE_TTL),
    stateKey: keyBytes(env, STATE_KEY_HEX),
    fingerprintKey: keyBytes(env, FINGERPRINT_KEY_HEX),
    fault: fault(env, HTTP_FAULTS),
    bearerTokensFile:
      options.conformance === true && (env[BEARER_TOKENS_FILE] ?? '') === '' ? null : required(env, BEARER_TOKENS_FILE),
    readTimeoutMs: readTimeoutMs(env),
  };
}

/** Optional; whole milliseconds read like the TTLs, so the same spellings are accepted everywhere. */
export function readTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = env[HTTP_READ_TIMEOUT_MS];
  if (value === undefined || value === '') return DEFAULT_HTTP_READ_TIMEOUT_MS;
  const parsed = decimal(env, HTTP_READ_TIMEOUT_MS);
  if (parsed.unscaled <= 0n) throw new ConfigurationError(`${HTTP_READ_TIMEOUT_MS} must be positive`);
  const millis = wholeSeconds(HTTP_READ_TIMEOUT_MS, parsed, 'milliseconds');
  // Node's timers overflow past 2^31-1 ms and then fire at once.
  if (millis > 2147483647) throw new ConfigurationError(`${HTTP_READ_TIMEOUT_MS} is too large`);
  return millis;
}

/** WIRE_CONFORMANCE_STATE_TTL: whole seconds, positive, read like the other TTLs; unset or empty is the default. */
export function readConformanceConfig(env: NodeJS.ProcessEnv): ConformanceConfig {
  const value = env[CONFORMANCE_STATE_TTL];
  if (value === undefined || value === '') return { stateTtl: DEFAULT_CONFORMANCE_STATE_TTL };
  return { stateTtl: positiveSeconds(env, CONFORMANCE_STATE_TTL) };
}

/**
 * WIRE_SERVER_DB, required unless WIRE_LEDGER_URL names a PostgreSQL ledger (then ''): the fixture never opens the
 * ledger itself, the bridge does, and the bridge validates the URL and its password.
 */
function database(env: NodeJS.ProcessEnv): string {
  if ((env[LEDGER_URL] ?? '') !== '') return env[SERVER_DB] ?? '';
  return required(env, SERVER_DB);
}

/** Reads and validates every variable, in a fixed order; the first bad one throws. */
export function readConfig(env: NodeJS.ProcessEnv): FixtureConfig {
  return {
    database: database(env),
    backendId: required(env, BACKEND_ID),
    principal: required(env, PRINCIPAL),
    clockEpoch: clockEpoch(env),
    authorityTtl: positiveSeconds(env, AUTHORITY_TTL),
    replayRetentionTtl: positiveSeconds(env, REPLAY_RETENTION_TTL),
    requestStateTtl: positiveSeconds(env, REQUEST_STATE_TTL),
    stateKey: keyBytes(env, STATE_KEY_HEX),
    fingerprintKey: keyBytes(env, FINGERPRINT_KEY_HEX),
    fault: fault(env),
  };
}

export function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined || value === '') throw new ConfigurationError(`${name} is required`);
  return value;
}

/** The injected clock: whole epoch seconds, not negative. */
export function clockEpoch(env: NodeJS.ProcessEnv): number {
  const value = decimal(env, CLOCK_EPOCH);
  if (value.unscaled < 0n) throw new ConfigurationError(`${CLOCK_EPOCH} must not be negative`);
  return wholeSeconds(CLOCK_EPOCH, value);
}

export function positiveSeconds(env: NodeJS.ProcessEnv, name: string): number {
  const value = decimal(env, name);
  if (value.unscaled <= 0n) throw new ConfigurationError(`${name} must be positive`);
  return wholeSeconds(name, value);
}

export function keyBytes(env: NodeJS.ProcessEnv, name: string): Uint8Array {
  const hex = required(env, name);
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new ConfigurationError(`${name} must be hexadecimal`);
  const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
  if (bytes.length < MIN_KEY_BYTES) {
    throw new ConfigurationError(`${name} must contain at least ${MIN_KEY_BYTES} bytes`);
  }
  return bytes;
}

export function fault(env: NodeJS.ProcessEnv, allowed: readonly LabFault[] = LAB_FAULTS): LabFault | null {
  const value = env[FAULT];
  if (value === undefined || value === '') return null;
  const known = allowed.find((f) => f === value);
  if (known === undefined) throw new ConfigurationError(`${FAULT} must be one of [${allowed.join(', ')}]`);
  return known;
}

/** A number as java.math.BigDecimal reads it: unscaled digits and a scale, value = unscaled × 10^-scale. */
interface Decimal {
  readonly unscaled: bigint;
  readonly scale: bigint;
}

function decimal(env: NodeJS.ProcessEnv, name: string): Decimal {
  const text = javaTrim(required(env, name));
  const lower = text.toLowerCase();
  if (lower === 'nan' || lower.includes('inf')) throw new ConfigurationError(`${name} must be finite`);
  const parsed = parseBigDecimal(text);
  if (parsed === null) throw new ConfigurationError(`${name} must be numeric`);
  return parsed;
}

/** String.trim(): strips every code unit up to U+0020 at both ends, and nothing else. */
function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

/** Decimal digit value of one code point (a BMP Nd digit, as Character.digit(c, 10) reads it), or -1. */
function digitValue(codePoint: number): number {
  if (codePoint >= 0x30 && codePoint <= 0x39) return codePoint - 0x30;
  // Java reads UTF-16 code units one at a time: half of a surrogate pair is never a digit.
  if (codePoint > 0xffff) return -1;
  const isDigit = (cp: number): boolean => cp >= 0 && /^\p{Nd}$/u.test(String.fromCodePoint(cp));
  if (!isDigit(codePoint)) return -1;
  // Nd digits are encoded in contiguous runs of whole decades from 0 to 9.
  let start = codePoint;
  while (isDigit(start - 1)) start--;
  return (codePoint - start) % 10;
}

/** The grammar of new BigDecimal(String): sign? digits with at most one '.', then e|E sign? digits. */
function parseBigDecimal(text: string): Decimal | null {
  const chars = Array.from(text);
  let i = 0;
  let negative = false;
  if (chars[i] === '+' || chars[i] === '-') {
    negative = chars[i] === '-';
    i++;
  }
  let digits = '';
  let fractionDigits = 0;
  let sawPoint = false;
  for (; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '.') {
      if (sawPoint) return null;
      sawPoint = true;
      continue;
    }
    if (c === 'e' || c === 'E') break;
    const d = digitValue(c.codePointAt(0)!);
    if (d < 0) return null;
    digits += String(d);
    if (sawPoint) fractionDigits++;
  }
  if (digits === '') return null;
  let exponent = 0n;
  if (i < chars.length) {
    i++; // the e or E
    let exponentNegative = false;
    if (chars[i] === '+' || chars[i] === '-') {
      exponentNegative = chars[i] === '-';
      i++;
    }
    let exponentDigits = '';
    for (; i < chars.length; i++) {
      const d = digitValue(chars[i]!.codePointAt(0)!);
      if (d < 0) return null;
      exponentDigits += String(d);
    }
    if (exponentDigits === '') return null;
    exponent = BigInt(exponentDigits) * (exponentNegative ? -1n : 1n);
    if (exponent < INT_MIN || exponent > INT_MAX) return null;
  }
  const scale = BigInt(fractionDigits) - exponent;
  if (scale < INT_MIN || scale > INT_MAX) return null;
  const magnitude = BigInt(digits);
  return { unscaled: negative ? -magnitude : magnitude, scale };
}

/** Whole units only (seconds, or the read timeout's milliseconds), within the safe-integer range: state times are bound into canonical JSON. */
function wholeSeconds(name: string, value: Decimal, unit = 'seconds'): number {
  const { unscaled, scale } = value;
  const magnitude = unscaled < 0n ? -unscaled : unscaled;
  if (magnitude === 0n) return 0;
  const digits = magnitude.toString();
  const trailingZeros = BigInt(digits.length - digits.replace(/0+$/, '').length);
  if (scale > trailingZeros) throw new ConfigurationError(`${name} must be a whole number of ${unit}`);
  // 2^53-1 has 16 digits: more digits after scaling is too large, decided without computing 10^-scale.
  if (BigInt(digits.length) - scale > 16n) throw new ConfigurationError(`${name} is too large`);
  const whole = scale >= 0n ? unscaled / 10n ** scale : unscaled * 10n ** -scale;
  if (whole > MAX_SAFE) throw new ConfigurationError(`${name} is too large`);
  return Number(whole);
}
