/**
 * What the strict frame gate does with one line read from stdin (without its newline): forward it to the SDK, answer
 * it with one JSON-RPC error line, or drop it. Pure: bytes in, verdict out.
 *
 * The SDK (2.4.0) decodes a line with Buffer.toString (invalid UTF-8 becomes U+FFFD), parses ids with JSON.parse
 * (`1e-400` becomes 0), accepts any envelope version on a pinned connection, and silently drops any line its strict
 * message schema refuses (an unknown top-level member, params that are not an object). The gate decides first:
 *
 * - not UTF-8, or not JSON → `-32700 Parse error` without id (as the Java server);
 * - not an object (a batch, a scalar) → `-32600` without id;
 * - a request (an `id` member): the id must be a string or an integer within ±(2^53−1) spelt as an integer, else
 *   `-32600` without id; then `"jsonrpc":"2.0"`, a string `method`, no `result`/`error`, `params` absent or an object,
 *   else `-32600` with the id; `params._meta` absent or an object, else `-32602` with the id; an envelope
 *   protocol version that is a string other than exactly `2026-07-28` → `-32022`, the Java SDK's error;
 * - a notification (a `method`, no `id`) failing any of these is dropped (JSON-RPC: notifications are never answered);
 * - a response (no `method`, a `result` or `error`) is forwarded as it is (the SDK ignores it, as before);
 * - unknown top-level members are cut out of the line (JSON-RPC 2.0 and MCP 2026-07-28 do not forbid them, MCP says a
 *   receiver SHOULD ignore what it does not recognise, and the Java server processes such requests), every other
 *   byte forwarded as sent; a line without unknown members is forwarded byte for byte.
 */
import { topLevelMembers, type Member } from './json-members.js';

export const PROTOCOL_VERSION = '2026-07-28';
export const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

export type Verdict =
  | { readonly kind: 'forward'; readonly line: Buffer }
  | { readonly kind: 'reply'; readonly line: string }
  | { readonly kind: 'drop' };

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const INTEGER = /^-?(0|[1-9][0-9]*)$/;

/** An error line; `id` is JSON text (or absent when the id cannot be read). */
export function errorLine(id: string | undefined, code: number, message: string, data?: unknown): string {
  const error = JSON.stringify(data === undefined ? { code, message } : { code, message, data });
  return id === undefined ? `{"jsonrpc":"2.0","error":${error}}` : `{"jsonrpc":"2.0","id":${id},"error":${error}}`;
}

export const PARSE_ERROR = errorLine(undefined, -32700, 'Parse error');
export const INVALID_REQUEST = errorLine(undefined, -32600, 'Invalid Request');

/** The id's JSON text if it is a valid JSON-RPC id for MCP (a string, or an integer spelt as one and safe). */
export function validId(source: string): string | undefined {
  if (source.startsWith('"')) return source;
  if (!INTEGER.test(source)) return undefined;
  const value = BigInt(source);
  return (value < 0n ? -value : value) <= MAX_SAFE ? value.toString() : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function lastMember(members: readonly Member[], name: string): Member | undefined {
  for (let i = members.length - 1; i >= 0; i--) if (members[i]?.name === name) return members[i];
  return undefined;
}

// ignoreBOM keeps a leading U+FEFF, so JSON.parse refuses it here; the SDK behind would skip such a line unanswered
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function judgeFrame(bytes: Buffer): Verdict {
  let text: string;
  let message: unknown;
  try {
    text = decoder.decode(bytes);
    message = JSON.parse(text);
  } catch {
    return { kind: 'reply', line: PARSE_ERROR };
  }
  if (!isObject(message)) return { kind: 'reply', line: INVALID_REQUEST };
  const members = topLevelMembers(text);
  const idMember = lastMember(members, 'id');
  const hasMethod = 'method' in message;

  if (idMember === undefined) {
    if (hasMethod) return validFrame(message) === undefined ? unknownMembersCut(bytes, text, members) : { kind: 'drop' };
    return 'result' in message || 'error' in message ? { kind: 'forward', line: bytes } : { kind: 'reply', line: INVALID_REQUEST };
  }
  if (!hasMethod && ('result' in message || 'error' in message)) return { kind: 'forward', line: bytes };

  const id = validId(idMember.value);
  if (id === undefined) return { kind: 'reply', line: INVALID_REQUEST };
  const problem = validFrame(message);
  if (problem !== undefined) return { kind: 'reply', line: problem(id) };
  return unknownMembersCut(bytes, text, members);
}

/** Undefined if the frame (request or notification) may reach the SDK, else the error it gets, given its id. */
function validFrame(message: Record<string, unknown>): ((id: string) => string) | undefined {
  if (message['jsonrpc'] !== '2.0' || typeof message['method'] !== 'string' || 'result' in message || 'error' in message) {
    return (id) => errorLine(id, -32600, 'Invalid Request');
  }
  if (!('params' in message)) return undefined;
  const params = message['params'];
  if (!isObject(params)) return (id) => errorLine(id, -32600, 'Invalid Request');
  if (!('_meta' in params)) return undefined;
  const meta = params['_meta'];
  if (!isObject(meta)) return (id) => errorLine(id, -32602, 'params._meta must be an object');
  const version = meta[VERSION_KEY];
  if (typeof version === 'string' && version !== PROTOCOL_VERSION) {
    return (id) =>
      errorLine(id, -32022, 'Unsupported protocol version', { supported: [PROTOCOL_VERSION], requested: version });
  }
  return undefined;
}

/** The line itself if every top-level member is known, else the line without the unknown ones. */
function unknownMembersCut(bytes: Buffer, text: string, members: readonly Member[]): Verdict {
  if (members.every((m) => REQUEST_MEMBERS.has(m.name))) return { kind: 'forward', line: bytes };
  const kept = members.filter((m) => REQUEST_MEMBERS.has(m.name)).map((m) => text.slice(m.start, m.end));
  return { kind: 'forward', line: Buffer.from(`{${kept.join(',')}}`, 'utf8') };
}

export type BodyVerdict =
  | { readonly kind: 'pass'; readonly message: Record<string, unknown> }
  | { readonly kind: 'refuse'; readonly line: string };

/**
 * The HTTP mode's gate for one request body: the rules the Java server's HTTP gate applies (GateServlet), answered with
 * this gate's lines. Strict UTF-8 and exactly one JSON value, else `-32700`; an object, else `-32600` without id;
 * `"jsonrpc"` exactly `"2.0"` (the last such member, as JSON.parse keeps it), else `-32600` with the id when it is a
 * valid one. The rest of judgeFrame stays with stdio: the Java server's HTTP gate does not apply it either, and over
 * HTTP the SDK answers what it cannot take (400) instead of dropping it without a word as its stdio transport does.
 * The parsed message is handed on, so the SDK gets exactly the value that was checked.
 */
export function judgeHttpBody(bytes: Buffer): BodyVerdict {
  let text: string;
  let message: unknown;
  try {
    text = decoder.decode(bytes);
    message = JSON.parse(text);
  } catch {
    return { kind: 'refuse', line: PARSE_ERROR };
  }
  if (!isObject(message)) return { kind: 'refuse', line: INVALID_REQUEST };
  if (message['jsonrpc'] !== '2.0') {
    const idMember = lastMember(topLevelMembers(text), 'id');
    const id = idMember === undefined ? undefined : validId(idMember.value);
    return { kind: 'refuse', line: errorLine(id, -32600, 'Invalid Request') };
  }
  return { kind: 'pass', message };
}
