/**
 * The fixture as a real process serving Streamable HTTP on a free loopback port, as the HTTP tests start it: its URL
 * read from the ready line on stderr, stdout and stderr kept, one JSON-RPC POST at a time with the headers 2026-07-28
 * requires, and SIGTERM to stop it. The test files add their own calls on top.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

export class HttpServerProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly closed: Promise<number | null>;
  readonly url: Promise<string>;
  stderr = '';
  stdout = '';
  #id = 0;

  constructor(server: string, args: string[], env: NodeJS.ProcessEnv) {
    this.#child = spawn(process.execPath, [server, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.closed = new Promise((r) => this.#child.on('close', (code) => r(code)));
    this.#child.stdout.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.url = new Promise((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${this.stderr}`)), 20_000);
      this.#child.stderr.on('data', (chunk: Buffer) => {
        this.stderr += chunk.toString();
        const match = /^serving (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(this.stderr);
        if (match !== null) {
          clearTimeout(timer);
          resolveUrl(match[1]!);
        }
      });
    });
  }

  get pid(): number {
    return this.#child.pid!;
  }

  /** One JSON-RPC request: the standard headers, `Mcp-Name` from `params.name`, a bearer token when given, `_meta`. */
  async send(method: string, params: Record<string, unknown>, token: string | undefined, meta: object): Promise<Response> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
    };
    if (typeof params['name'] === 'string') headers['mcp-name'] = params['name'];
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++this.#id, method, params: { ...params, _meta: meta } });
    return fetch(await this.url, { method: 'POST', headers, body });
  }

  async stop(): Promise<number | null> {
    this.#child.kill('SIGTERM');
    return this.closed;
  }
}
