/**
 * HTTP mode of the guarded fixture (`--http PORT`): the same tools over Streamable HTTP at
 * http://127.0.0.1:PORT/mcp, with the SDK's createMcpHandler mounted through toNodeHandler. Everything the SDK leaves
 * to the embedding happens here, before the SDK sees a request: loopback Host/Origin, the bearer principal, the body
 * limit, the strict body rules of the Java server's gate, the read timeout and the in-flight limit. A refused request
 * never reaches a handler, so it has no effect.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  localhostHostValidation,
  localhostOriginValidation,
  type NodeIncomingMessageLike,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { type AuthInfo, createMcpHandler, createRequestStateCodec, McpServer } from '@modelcontextprotocol/server';
import type { BearerTokens } from './bearer-tokens.js';
import { BridgeClient } from './bridge-client.js';
import { boundRequestStateVerify } from './bound-request-state.js';
import type { FixtureRequest } from './conformance-fixtures.js';
import { CONFORMANCE_PRINCIPAL, ConformanceProfile } from './conformance-profile.js';
import { judgeHttpBody } from './frame-verdict.js';
import { registerGuardedTools } from './guarded-tools.js';
import { registerUnguardedTools, unguardedStateVerify } from './unguarded-tools.js';
import type { ToolCall } from './tool-call-arguments.js';
import { FAULT, type HttpFixtureConfig, PRINCIPAL } from './trusted-environment.js';

export const ENDPOINT = '/mcp';
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const MAX_IN_FLIGHT = 64;
const LOOPBACK = '127.0.0.1';

export interface HttpFixtureOptions {
  readonly config: HttpFixtureConfig;
  /** Undefined only under the conformance profile: then every request is CONFORMANCE_PRINCIPAL. */
  readonly tokens: BearerTokens | undefined;
  /** The conformance profile (`--conformance`); absent, the server serves the guarded tools only. */
  readonly profile?: ConformanceProfile;
  /** Serve the unguarded control (unguarded-tools.ts) instead of the guarded tools; never with a profile. */
  readonly unguarded?: boolean;
  readonly bridgeArgv: readonly string[];
  readonly bridgeEnv: Record<string, string>;
  readonly serverInfo: { name: string; version: string };
  readonly log: (message: string) => void;
  readonly exit: (status: number) => void;
}

/** What the fixture attaches to a request's AuthInfo for the per-request server instance. */
interface RequestScope {
  readonly call: ToolCall | undefined;
  /** The profile's view of the same body (tools/call and prompts/get, with or without a state). */
  readonly request: FixtureRequest | undefined;
  readonly closeConnection: () => void;
}
const SCOPE = 'continuationReplayScope';

/**
 * The bridge takes its principal from its own environment (the bridge protocol has no principal field, on purpose),
 * so each principal gets its own bridge child, started on that principal's first call.
 */
class PrincipalBridges {
  readonly #bridges = new Map<string, BridgeClient>();

  constructor(
    private readonly argv: readonly string[],
    private readonly env: Record<string, string>,
  ) {}

  for(principal: string): BridgeClient {
    let bridge = this.#bridges.get(principal);
    if (bridge === undefined) {
      const env: Record<string, string> = { ...this.env, [PRINCIPAL]: principal };
      // close-after-commit is the fixture's own fault; the bridge knows only the stdio ones.
      if (env[FAULT] === 'close-after-commit') delete env[FAULT];
      bridge = new BridgeClient({ argv: this.argv, env });
      bridge.start();
      this.#bridges.set(principal, bridge);
    }
    return bridge;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#bridges.values()].map((bridge) => bridge.close()));
  }
}

export interface RunningHttpFixture {
  readonly url: string;
  readonly server: HttpServer;
  close(): Promise<void>;
}

export function serveHttp(options: HttpFixtureOptions, port: number): Promise<RunningHttpFixture> {
  const { config, tokens, profile, log } = options;
  // Serving without bearer tokens is the profile's exception (DESIGN.md, Servers), never a default.
  if (tokens === undefined && profile === undefined) throw new Error('HTTP mode needs bearer tokens');
  if (options.unguarded === true && profile !== undefined) throw new Error('the unguarded control has no conformance profile');
  const codec = createRequestStateCodec<unknown>({
    key: config.stateKey,
    ttlSeconds: config.requestStateTtl,
    // Every request reaching the SDK was authenticated, so a missing principal is a bug: refuse rather than bind ''.
    bind: (ctx) => {
      const principal = ctx.http?.authInfo?.clientId;
      if (principal === undefined) throw new Error('no principal on this request');
      return principal;
    },
  });
  const bridges = new PrincipalBridges(options.bridgeArgv, options.bridgeEnv);

  const mcp = createMcpHandler(
    (ctx) => {
      const principal = ctx.authInfo?.clientId;
      const scope = ctx.authInfo?.extra?.[SCOPE] as RequestScope | undefined;
      if (principal === undefined || scope === undefined) throw new Error('an unauthenticated request reached the SDK');
      // One server instance per request, so the verify hook sees exactly this request's arguments: ids are chosen by
      // clients and concurrent requests may share one, which a map keyed by id (stdio's way) could not tell apart.
      const take = { take: () => scope.call };
      if (options.unguarded === true) {
        const control = new McpServer(options.serverInfo, {
          capabilities: { tools: {} },
          requestState: { verify: unguardedStateVerify(codec, take) },
        });
        control.server.onerror = (error) => log(error.message);
        registerUnguardedTools(control, { codec, bridge: bridges.for(principal) });
        return control;
      }
      const guardedVerify = boundRequestStateVerify(codec, take);
      const verify = profile === undefined ? guardedVerify : profile.verify(scope.request, guardedVerify);
      const capabilities = profile === undefined ? { tools: {} } : { tools: {}, prompts: {}, resources: {}, completions: {} };
      const server = new McpServer(options.serverInfo, { capabilities, requestState: { verify } });
      server.server.onerror = (error) => log(error.message);
      profile?.register(server, scope.request, () => mcp.notify);
      registerGuardedTools(server, {
        config: { ...config, principal },
        codec,
        bridge: bridges.for(principal),
        exit: options.exit,
        closeConnection: scope.closeConnection,
      });
      return server;
    },
    // responseMode stays 'auto': the guarded tools emit nothing before their result, so each of their replies is one
    // JSON body; only a conformance fixture that reports progress upgrades its reply to an event stream.
    { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES, onerror: (error) => log(error.message) },
  );
  const node = toNodeHandler(mcp, { maxRequestBodySize: MAX_BODY_BYTES, onerror: (error) => log(error.message) });
  const hostAllowed = localhostHostValidation();
  const originAllowed = localhostOriginValidation();
  let inFlight = 0;

  const handle = async (req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse): Promise<void> => {
    // DNS rebinding first: a page on a foreign origin must learn nothing, not even whether a token is valid.
    if (!hostAllowed(req, res) || !originAllowed(req, res)) return;
    if ((req.url ?? '').split('?')[0] !== ENDPOINT) return plain(res, 404, 'not found');
    if (inFlight >= MAX_IN_FLIGHT) {
      return plain(res, 503, 'too many requests in flight', { 'retry-after': '1' });
    }
    const authorization = req.headers.authorization;
    const principal = tokens === undefined ? CONFORMANCE_PRINCIPAL : tokens.principalFor(authorization);
    if (principal === undefined) {
      const challenge = authorization === undefined ? 'Bearer' : 'Bearer error="invalid_token"';
      return plain(res, 401, 'unauthorized', { 'www-authenticate': challenge });
    }
    inFlight++;
    try {
      let body: unknown;
      if (req.method === 'POST') {
        const read = await readBody(req);
        if (read === 'too large') return plain(res, 413, 'request body over 4 MiB');
        if (read === 'aborted') return;
        // The Java server's rules, not a lenient decode: toString('utf8') turned invalid UTF-8 into U+FFFD and the
        // call went on to have its effect. What is refused here never reaches the SDK.
        const verdict = judgeHttpBody(read);
        if (verdict.kind === 'refuse') return jsonLine(res, 400, verdict.line);
        body = verdict.message;
        const refusal = profile === undefined ? undefined : ConformanceProfile.refuseContinuationWithoutState(body);
        // HTTP 200, as the SDK answers a refused state from its verify hook.
        if (refusal !== undefined) return jsonLine(res, 200, refusal);
      }
      const scope: RequestScope = {
        call: recordedCall(body),
        request: profile === undefined ? undefined : ConformanceProfile.requestOf(body),
        closeConnection: () => req.socket.destroy(),
      };
      // The token stays in the process: AuthInfo is handed only to this request's server instance.
      req.auth = { token: '(bearer)', clientId: principal, scopes: [], extra: { [SCOPE]: scope } };
      // Node's own types mark `method` optional where the adapter's duck type does not; an HTTP request always has one.
      await node(req as NodeIncomingMessageLike, res, body);
    } finally {
      inFlight--;
    }
  };

  const server = createServer(
    {
      // A client that has not sent its whole request within the read timeout gets 408 and is disconnected.
      requestTimeout: config.readTimeoutMs,
      headersTimeout: config.readTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.readTimeoutMs),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        log(error instanceof Error ? error.message : String(error));
        if (!res.headersSent) plain(res, 500, 'internal error');
        else res.destroy();
      });
    },
  );

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://${LOOPBACK}:${bound}${ENDPOINT}`,
        server,
        close: async () => {
          await new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          });
          await mcp.close();
          await bridges.close();
        },
      });
    });
  });
}

/** The name and arguments of a single tools/call carrying a string requestState, for the verify hook. */
function recordedCall(body: unknown): ToolCall | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params } = body as Record<string, unknown>;
  if (method !== 'tools/call' || params === null || typeof params !== 'object') return undefined;
  const { name, arguments: args, requestState } = params as Record<string, unknown>;
  return typeof requestState === 'string' ? { name, arguments: args } : undefined;
}

/**
 * The whole body, or why not; stops buffering as soon as the limit is passed. A refused body is then read and
 * dropped rather than cut off, so a client still sending it gets to read the 413 (cutting the connection resets it
 * before the answer is read); the read timeout bounds how long that can take.
 */
function readBody(req: IncomingMessage): Promise<Buffer | 'too large' | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.resolve('too large');
  return new Promise((settle) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      chunks.length = 0;
      req.resume();
      settle('too large');
    };
    req.on('data', onData);
    req.once('end', () => settle(Buffer.concat(chunks)));
    req.once('close', () => {
      if (!req.complete) settle('aborted');
    });
  });
}

function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  // An unread body is dropped by Node once the answer is sent, bounded by the read timeout.
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${message}\n`);
}

function jsonLine(res: ServerResponse, status: number, line: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(line);
}
