/**
 * One script connection: an official SDK `Client` over the SDK's own `StdioClientTransport` or
 * `StreamableHTTPClientTransport`, set up as an application would (form elicitation declared, answered by a handler).
 */
import { Client, type ClientOptions, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { HttpServerSpec, JsonObject, ServerSpec, StdioServerSpec, VersionMode } from './script.js';
import { log } from './log.js';

export const CLIENT_NAME = 'continuation-replay-ts-client';
export const CLIENT_VERSION = '0.1.0';

function versionNegotiation(mode: VersionMode): Pick<ClientOptions, 'versionNegotiation'> {
  switch (mode) {
    case 'pin':
      return { versionNegotiation: { mode: { pin: '2026-07-28' } } };
    case 'auto':
      return { versionNegotiation: { mode: 'auto' } };
    case 'default':
      // No option at all, not mode 'legacy': what an application that never heard of negotiation gets.
      return {};
  }
}

/**
 * The transport's `env` replaces the child's environment; the contract is the driver's own environment plus the
 * script's, so both are merged here (script values win).
 */
function childEnvironment(spec: StdioServerSpec): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...spec.env };
}

/**
 * The transport's `authProvider` is the SDK's own option for a bearer token ("for simple bearer tokens:
 * `{ token: async () => myApiKey }`"): `token()` is asked before every request, so the header goes with the version
 * probe and every round alike. Without `onUnauthorized`, a 401 is thrown as the SDK's `UnauthorizedError`.
 */
function httpTransport(spec: HttpServerSpec): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(spec.url, { authProvider: { token: async () => spec.token() } });
}

export class Connection {
  readonly client: Client;
  readonly transport: Transport;
  /** The `answer` of the `call` step in progress; null declines (no `call` running, or one without `answer`). */
  answer: JsonObject | null = null;
  #closed = false;

  constructor(
    readonly name: string,
    spec: ServerSpec,
    versionMode: VersionMode,
  ) {
    this.client = new Client(
      { name: CLIENT_NAME, version: CLIENT_VERSION },
      { capabilities: { elicitation: { form: {} } }, ...versionNegotiation(versionMode) },
    );
    this.client.setRequestHandler('elicitation/create', async () => {
      if (this.answer === null) return { action: 'decline' };
      return { action: 'accept', content: this.answer as Record<string, string | number | boolean | string[]> };
    });
    this.client.onerror = (error) => log(`connection ${name}: client error: ${error.message}`);
    if (spec.transport === 'http') {
      this.transport = httpTransport(spec);
      return;
    }
    const stdio = new StdioClientTransport({
      command: spec.command,
      args: [...spec.args],
      env: childEnvironment(spec),
      stderr: 'pipe',
    });
    forwardStderr(name, stdio);
    this.transport = stdio;
  }

  /**
   * The script's `close` step: the SDK's own `close()`, nothing else, so the record times only that. Over HTTP it
   * ends the client's side only; the server is the lab's to stop.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.client.close();
  }

  /**
   * The end of the run, for every connection: a connection the script did not close may still have a server process,
   * and after a failed connect the client may never have adopted its transport, so the transport is closed too.
   */
  async dispose(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      await this.client.close().catch((e: unknown) => log(`connection ${this.name}: close: ${String(e)}`));
    }
    await this.transport.close().catch((e: unknown) => log(`connection ${this.name}: transport close: ${String(e)}`));
  }
}

/** The server's stderr, line by line with the connection's name, onto the driver's stderr (stdout stays unused). */
function forwardStderr(name: string, transport: StdioClientTransport): void {
  const stream = transport.stderr;
  if (stream === null) return;
  let pending = '';
  stream.on('data', (chunk: Buffer | string) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) process.stderr.write(`[${name}] ${line}\n`);
  });
  stream.on('end', () => {
    if (pending !== '') process.stderr.write(`[${name}] ${pending}\n`);
    pending = '';
  });
}
