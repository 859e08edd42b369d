/**
 * The conformance profile (`--http PORT --conformance`): the official suite's fixtures served by the same HTTP fixture
 * beside the guarded tools. This module holds what the profile adds to each request's handling; http-server.ts calls
 * it only when the profile is on, so a server started without it serves exactly as before.
 */
import type { McpServer, ServerContext, ServerNotifier } from '@modelcontextprotocol/server';
import {
  completeFixtureArgument,
  type FixtureRequest,
  isFixtureRequest,
  isSealedFixture,
  PROMPTS_GET,
  refuseStatelessFixtureState,
  registerConformanceFixtures,
  TOOLS_CALL,
} from './conformance-fixtures.js';
import { FixtureStates } from './fixture-state.js';
import { systemEpochSeconds } from './injected-clock.js';

/** The principal of every request when the profile runs without a tokens file (the suite cannot send a token). */
export const CONFORMANCE_PRINCIPAL = 'conformance';

/** The SDK's own words for a refused requestState, so a refusal from the gate below reads like one from the hook. */
const REFUSED_STATE_ERROR = { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } };

export interface ConformanceProfileOptions {
  readonly stateKey: Uint8Array;
  readonly stateTtlSeconds: number;
  /** Whole epoch seconds; the real clock unless a test supplies its own. */
  readonly now?: () => number;
}

export class ConformanceProfile {
  readonly states: FixtureStates;

  constructor(options: ConformanceProfileOptions) {
    this.states = new FixtureStates({
      key: options.stateKey,
      ttlSeconds: options.stateTtlSeconds,
      now: options.now ?? systemEpochSeconds,
    });
  }

  /** The method, name and arguments of a tools/call or prompts/get body, as sent; undefined for anything else. */
  static requestOf(body: unknown): FixtureRequest | undefined {
    const params = paramsOf(body, [TOOLS_CALL, PROMPTS_GET]);
    if (params === undefined) return undefined;
    return { method: (body as { method: string }).method, name: params['name'], arguments: params['arguments'] };
  }

  /**
   * The JSON-RPC error line for a continuation of a sealed fixture that carries input responses but no requestState,
   * or undefined. The SDK calls its verify hook only when a state is present and turns anything a tool handler
   * throws into an isError result, so this refusal has to happen before the SDK sees the request.
   */
  static refuseContinuationWithoutState(body: unknown): string | undefined {
    const params = paramsOf(body, [TOOLS_CALL, PROMPTS_GET]);
    if (params === undefined) return undefined;
    const { method, id } = body as { method: string; id?: unknown };
    if (!isSealedFixture(method, params['name'])) return undefined;
    if (!('inputResponses' in params) || 'requestState' in params) return undefined;
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    return JSON.stringify({ jsonrpc: '2.0', id, error: REFUSED_STATE_ERROR });
  }

  /**
   * The verify hook for a server instance of the profile: the fixtures' states for fixture requests, the guarded
   * tools' own hook for everything else.
   */
  verify(
    request: FixtureRequest | undefined,
    guarded: (state: string, ctx: ServerContext) => Promise<unknown>,
  ): (state: string, ctx: ServerContext) => Promise<unknown> {
    return async (state, ctx) => {
      if (request === undefined || !isFixtureRequest(request.method, request.name)) return guarded(state, ctx);
      if (!isSealedFixture(request.method, request.name)) refuseStatelessFixtureState(request.name);
      return this.states.open(state, ctx, request);
    };
  }

  /** Registers every fixture on one request's server instance. */
  register(server: McpServer, request: FixtureRequest | undefined, notifier: () => ServerNotifier): void {
    registerConformanceFixtures(server, { states: this.states, request, notifier });
    // McpServer only installs a completion handler for zod-style completable arguments; the fixture answers itself.
    server.server.setRequestHandler('completion/complete', (req) => completeFixtureArgument(req.params));
  }
}

function paramsOf(body: unknown, methods: readonly string[]): Record<string, unknown> | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params } = body as Record<string, unknown>;
  if (typeof method !== 'string' || !methods.includes(method)) return undefined;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  return params as Record<string, unknown>;
}
