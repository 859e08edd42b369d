#!/usr/bin/env node
/**
 * fingerprint-cli: JSON Lines of LogicalRequests on stdin, one digest per line on stdout.
 * Key from CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX. Exit 0, or 2 for a bad key or a bad line.
 * `--keep-going` reports every bad line in place instead of stopping at the first.
 */
import { FingerprintKey, MIN_KEY_BYTES } from './fingerprint.js';
import { fingerprintLine, isBlankLine } from './fingerprint-lines.js';

const KEY_VARIABLE = 'CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX';

function keyFromEnvironment(): FingerprintKey | string {
  const hex = process.env[KEY_VARIABLE];
  if (hex === undefined || hex === '') return `${KEY_VARIABLE} is not set`;
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return `${KEY_VARIABLE} must be an even-length hexadecimal string`;
  if (hex.length / 2 < MIN_KEY_BYTES) return `${KEY_VARIABLE} must contain at least ${MIN_KEY_BYTES} bytes`;
  return FingerprintKey.of(Buffer.from(hex, 'hex'));
}

async function main(args: string[]): Promise<number> {
  const unknown = args.filter((a) => a !== '--keep-going');
  if (unknown.length > 0) {
    process.stderr.write(`usage: fingerprint-cli [--keep-going] (unknown argument ${unknown[0]})\n`);
    return 2;
  }
  const keepGoing = args.includes('--keep-going');
  const key = keyFromEnvironment();
  if (typeof key === 'string') {
    process.stderr.write(`${key}\n`);
    return 2;
  }
  let lineNumber = 0;
  let failed = false;
  let pending: Buffer = Buffer.alloc(0);
  const out: string[] = [];

  const handle = (bytes: Buffer): boolean => {
    lineNumber++;
    if (isBlankLine(bytes)) return true;
    const outcome = fingerprintLine(key, bytes);
    if (outcome.error === null || keepGoing) out.push(outcome.output);
    if (outcome.error === null) return true;
    failed = true;
    process.stderr.write(`line ${lineNumber}: ${outcome.error}\n`);
    return keepGoing;
  };

  for await (const chunk of process.stdin) {
    pending = pending.length === 0 ? (chunk as Buffer) : Buffer.concat([pending, chunk as Buffer]);
    let start = 0;
    let newline: number;
    while ((newline = pending.indexOf(0x0a, start)) !== -1) {
      const proceed = handle(pending.subarray(start, newline));
      start = newline + 1;
      if (!proceed) {
        await flush(out);
        return 2;
      }
    }
    pending = pending.subarray(start);
    await flush(out);
  }
  if (pending.length > 0 && !handle(pending)) {
    await flush(out);
    return 2;
  }
  await flush(out);
  return failed ? 2 : 0;
}

function flush(lines: string[]): Promise<void> {
  if (lines.length === 0) return Promise.resolve();
  const text = lines.join('\n') + '\n';
  lines.length = 0;
  return new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Stop reading: after the first bad line the rest of stdin is deliberately left unread.
    process.stdin.destroy();
  },
  (err: unknown) => {
    process.stderr.write(`fingerprint-cli: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
