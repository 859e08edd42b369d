/**
 * The strict frame gate between stdin and the SDK's stdio transport: reads stdin as bytes, splits lines (at most
 * MAX_LINE_BYTES each; a longer line is answered once and discarded without being buffered), judges each line
 * (frame-verdict.ts) and either hands it to the SDK through the returned stream, unchanged, or writes one error line
 * to `out`. `out` must be the stream the SDK's transport writes to: every write there is one whole line, so the gate's
 * lines and the SDK's never interleave. End of input and input errors pass through to the SDK as they are.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { errorLine, judgeFrame } from './frame-verdict.js';

/** Below the SDK's own 10 MiB read buffer, far above the fuzzer's 1.25 MiB strings. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
export const TOO_LARGE = errorLine(undefined, -32600, 'Invalid Request: line longer than 8 MiB');
const NEWLINE = Buffer.from('\n');

export interface GateOptions {
  readonly maxLineBytes?: number;
  /** Told about each line the gate refused or dropped (for stderr). */
  readonly onRefused?: (reply: string | undefined) => void;
}

/** Splits a byte stream into lines of at most `max` bytes; an over-long line is reported once and skipped. */
export class LineSplitter {
  #parts: Buffer[] = [];
  #length = 0;
  #discarding = false;

  constructor(
    private readonly max: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onTooLong: () => void,
  ) {}

  push(chunk: Buffer): void {
    let at = 0;
    while (at <= chunk.length) {
      const newline = chunk.indexOf(10, at);
      const piece = chunk.subarray(at, newline === -1 ? chunk.length : newline);
      if (!this.#discarding) {
        if (this.#length + piece.length > this.max) {
          this.#parts = [];
          this.#length = 0;
          this.#discarding = true;
          this.onTooLong();
        } else if (piece.length > 0) {
          this.#parts.push(piece);
          this.#length += piece.length;
        }
      }
      if (newline === -1) return;
      if (this.#discarding) this.#discarding = false;
      else {
        const line = this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts, this.#length);
        this.#parts = [];
        this.#length = 0;
        this.onLine(line);
      }
      at = newline + 1;
    }
  }
}

/** The stream to give the SDK's StdioServerTransport as its stdin. */
export function strictFrames(input: Readable, out: Writable, options: GateOptions = {}): PassThrough {
  const toSdk = new PassThrough();
  const reply = (line: string): void => {
    out.write(`${line}\n`);
  };
  const splitter = new LineSplitter(
    options.maxLineBytes ?? MAX_LINE_BYTES,
    (line) => {
      // An empty line carries nothing; the SDK skips it too.
      if (line.length === 0 || (line.length === 1 && line[0] === 13)) return;
      const verdict = judgeFrame(line);
      if (verdict.kind === 'forward') {
        if (!toSdk.write(Buffer.concat([verdict.line, NEWLINE]))) {
          input.pause();
          toSdk.once('drain', () => input.resume());
        }
      } else if (verdict.kind === 'reply') {
        options.onRefused?.(verdict.line);
        reply(verdict.line);
      } else {
        options.onRefused?.(undefined);
      }
    },
    () => {
      options.onRefused?.(TOO_LARGE);
      reply(TOO_LARGE);
    },
  );
  input.on('data', (chunk: Buffer | string) => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  input.on('end', () => toSdk.end());
  input.on('error', (error) => toSdk.destroy(error));
  return toSdk;
}
