/**
 * The JSON Lines contract shared by both fingerprint CLIs (DESIGN.md): one output line per non-blank input
 * line, `digest` or `name<TAB>digest`; the first bad line stops with `line N: <reason>`. With keepGoing, a bad
 * line prints `!<reason>` (or `name<TAB>!<reason>` when the name is known) and processing continues.
 */
import { parseExactJson } from './exact-json.js';
import { requestFingerprint, type FingerprintKey } from './fingerprint.js';
import { readLogicalRequest, readName } from './logical-request.js';

export interface LineOutcome {
  output: string;
  error: string | null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function isBlankLine(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d);
}

/** Digest of one non-blank input line, or the reason it has none. */
export function fingerprintLine(key: FingerprintKey, bytes: Uint8Array): LineOutcome {
  let name: string | null = null;
  try {
    let text: string;
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      return { output: '!invalid UTF-8', error: 'invalid UTF-8' };
    }
    const line = parseExactJson(text);
    name = readName(line);
    const request = readLogicalRequest(name === null ? line : (line as Record<string, unknown>)['request']);
    const digest = requestFingerprint(key, request);
    return { output: name === null ? digest : `${name}\t${digest}`, error: null };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { output: name === null ? `!${reason}` : `${name}\t!${reason}`, error: reason };
  }
}
