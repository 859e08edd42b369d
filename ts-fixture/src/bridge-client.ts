/**
 * The fixture's side of the JSON line bridge: ONE long-lived bridge child, calls serialised (one line written, one
 * line read), a new child after any machinery failure. A machinery failure (the child died, answered something
 * that is not a bridge reply, or did not answer in time) is a BridgeMachineryFailure naming the exit status or
 * signal and the child's last stderr line; the bridge's own application errors are ordinary answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { isPlainObject } from './fingerprint.js';

export const DEFAULT_CALL_TIMEOUT_MS = 8000;
const MAX_STDERR_NOTE = 160;
const MAX_REPLY_BYTES = 1 << 20;

export type BridgeAnswer =
  | { readonly ok: true; readonly result: Record<string, unknown> }
  | { readonly ok: false; readonly error: string; readonly detail: string };

export interface BridgeCaller {
  call(request: Record<string, unknown>): Promise<BridgeAnswer>;
}

export class BridgeMachineryFailure extends Error {}

export interface BridgeClientOptions {
  readonly argv: readonly string[];
  readonly env: Record<string, string>;
  readonly timeoutMs?: number;
  /** Where the child's stderr goes (the fixture's own stderr). */
  readonly stderr?: NodeJS.WritableStream;
}

export class BridgeClient implements BridgeCaller {
  readonly #options: BridgeClientOptions;
  #child: BridgeChild | undefined;
  #tail: Promise<unknown> = Promise.resolve();
  #closed = false;
  #spawned = 0;

  constructor(options: BridgeClientOptions) {
    if (options.argv.length === 0) throw new TypeError('the bridge command is empty');
    this.#options = options;
  }

  /** Starts the child now rather than on the first call, so the JVM warms up while the client connects. */
  start(): void {
    if (!this.#closed) this.#current();
  }

  call(request: Record<string, unknown>): Promise<BridgeAnswer> {
    const result = this.#tail.then(() => this.#exchange(request));
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** How many children were started so far (a new one follows every machinery failure). */
  get spawned(): number {
    return this.#spawned;
  }

  /** The current child's pid, if one is running. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Settles, with the exit status or signal a machinery failure would name, once the current child has exited; from
   * then on the next call starts a new child instead of writing to the dead one. Undefined while no child is running.
   */
  get childExit(): Promise<string> | undefined {
    return this.#child?.exit;
  }

  /** Ends the child's input (the bridge exits at end of input); kills it if it has not exited after `graceMs`. */
  async close(graceMs = 3000): Promise<void> {
    this.#closed = true;
    const child = this.#child;
    this.#child = undefined;
    if (child !== undefined) await child.end(graceMs);
  }

  async #exchange(request: Record<string, unknown>): Promise<BridgeAnswer> {
    if (this.#closed) throw new BridgeMachineryFailure('bridge machinery failure: bridge closed; ');
    const child = this.#current();
    try {
      const line = await child.exchange(`${JSON.stringify(request)}\n`, this.#options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
      const answer = readAnswer(line);
      if (answer === undefined) throw child.failure('invalid reply');
      return answer;
    } catch (error) {
      this.#discard(child);
      throw error;
    }
  }

  #current(): BridgeChild {
    if (this.#child === undefined || this.#child.exited) {
      this.#child = new BridgeChild(this.#options);
      this.#spawned++;
    }
    return this.#child;
  }

  #discard(child: BridgeChild): void {
    child.kill();
    if (this.#child === child) this.#child = undefined;
  }
}

/** One bridge process and its pipes. */
class BridgeChild {
  readonly #process: ChildProcess;
  #stdout: Buffer = Buffer.alloc(0);
  #stderrTail = '';
  #lastStderrLine = '';
  #pending: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  #death: string | undefined;
  #exitWaiters: Array<() => void> = [];
  /** Settles with how the child ended; #died sets #death before it runs the waiters, so `exited` is already true. */
  readonly exit: Promise<string>;

  constructor(options: BridgeClientOptions) {
    this.exit = new Promise((resolve) => this.#exitWaiters.push(() => resolve(this.#death!)));
    const [command, ...args] = options.argv;
    this.#process = spawn(command!, args, { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stderr = options.stderr ?? process.stderr;
    // A write to a child that just died must not crash the fixture; its exit is reported through 'close'.
    this.#process.stdin!.on('error', () => {});
    this.#process.stdout!.on('data', (chunk: Buffer) => this.#onStdout(chunk));
    this.#process.stderr!.on('data', (chunk: Buffer) => {
      stderr.write(chunk);
      this.#onStderr(chunk.toString('utf8'));
    });
    this.#process.on('error', (error) => this.#died(error.message));
    this.#process.on('close', (code, signal) => this.#died(code !== null ? String(code) : String(signal)));
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  get exited(): boolean {
    return this.#death !== undefined;
  }

  exchange(line: string, timeoutMs: number): Promise<string> {
    if (this.#death !== undefined) return Promise.reject(this.failure(this.#death));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending = undefined;
        this.kill();
        reject(this.failure(`no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.#process.stdin!.write(line);
    });
  }

  failure(what: string): BridgeMachineryFailure {
    const note = (this.#lastStderrLine || this.#stderrTail.trim()).slice(0, MAX_STDERR_NOTE);
    return new BridgeMachineryFailure(`bridge machinery failure: ${what}; ${note}`);
  }

  kill(): void {
    if (this.#death === undefined) this.#process.kill('SIGKILL');
  }

  end(graceMs: number): Promise<void> {
    if (this.#death !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.kill(), graceMs);
      this.#exitWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.#process.stdin!.end();
    });
  }

  #onStdout(chunk: Buffer): void {
    this.#stdout = this.#stdout.length === 0 ? chunk : Buffer.concat([this.#stdout, chunk]);
    let newline: number;
    while ((newline = this.#stdout.indexOf(0x0a)) !== -1) {
      const line = this.#stdout.subarray(0, newline).toString('utf8');
      this.#stdout = this.#stdout.subarray(newline + 1);
      const pending = this.#pending;
      this.#pending = undefined;
      if (pending === undefined) {
        // Output nobody asked for: the line protocol is out of step, so this child cannot be trusted any more.
        this.kill();
        return;
      }
      pending.resolve(line);
    }
    if (this.#stdout.length > MAX_REPLY_BYTES) {
      this.#pending?.reject(this.failure('reply too long'));
      this.#pending = undefined;
      this.kill();
    }
  }

  #onStderr(text: string): void {
    const lines = (this.#stderrTail + text).split('\n');
    this.#stderrTail = lines.pop() ?? '';
    for (const line of lines) {
      const trimmed = line.replace(/\r$/, '');
      if (trimmed.trim() !== '') this.#lastStderrLine = trimmed;
    }
    if (this.#stderrTail.length > 4096) this.#stderrTail = this.#stderrTail.slice(-4096);
  }

  #died(how: string): void {
    if (this.#death !== undefined) return;
    this.#death = how;
    if (this.#stderrTail.trim() !== '') this.#lastStderrLine = this.#stderrTail.replace(/\r$/, '');
    this.#pending?.reject(this.failure(how));
    this.#pending = undefined;
    for (const waiter of this.#exitWaiters.splice(0)) waiter();
  }
}

/** A bridge reply line, or undefined if it is not one. */
export function readAnswer(line: string): BridgeAnswer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  if (value['ok'] === true && isPlainObject(value['result'])) return { ok: true, result: value['result'] };
  if (value['ok'] === false && typeof value['error'] === 'string' && typeof value['detail'] === 'string') {
    return { ok: false, error: value['error'], detail: value['detail'] };
  }
  return undefined;
}
