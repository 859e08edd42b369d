/**
 * Plays a checked script through the SDK, one record per step. The driver never judges: whatever the SDK returns
 * or throws is the step's record, and the next step runs regardless.
 */
import type { CallToolRequest, RequestOptions } from '@modelcontextprotocol/client';
import { Connection } from './connection.js';
import {
  type ClientRecord,
  type Outcome,
  RECORD_FORMAT,
  type RecordFile,
  type Thrown,
  asJson,
  describeThrown,
} from './records.js';
import type {
  CallOnceStep,
  CallStep,
  InnerStep,
  Json,
  JsonObject,
  Script,
  StatusStep,
  Step,
} from './script.js';
import { tamper } from './tamper.js';

/** How each op reaches the SDK, as the record's `api` names it. */
export const API = {
  connect: 'new Client(..) + new StdioClientTransport(..), connect(transport)',
  connectHttp: 'new Client(..) + new StreamableHTTPClientTransport(url, {authProvider: {token}}), connect(transport)',
  listTools: 'listTools()',
  call: 'callTool({name, arguments})',
  callOnce: 'callTool(params, {allowInputRequired: true})',
  request: 'request({method: "tools/call", params}, {allowInputRequired: true})',
  close: 'close()',
} as const;

const STATUS_TOOL = 'get_operation_status';

/** What one SDK call gave back, before it becomes a record. */
interface Reply {
  readonly outcome: Outcome;
  readonly result: JsonObject | null;
  readonly threw: Thrown | null;
  /** The name an input_required answer's state is saved under, when the step asked to save it. */
  readonly savedState?: string | null;
  /** That state itself: kept by the run, never written to a record. */
  readonly requestState?: string | null;
}

export class Run {
  readonly #connections = new Map<string, Connection>();
  /** Connections closed by the script whose name was connected again; still disposed at the end. */
  readonly #retired: Connection[] = [];
  readonly #states = new Map<string, string>();

  constructor(
    private readonly script: Script,
    private readonly records: RecordFile,
    private readonly sdkVersion: string,
    private readonly startedAt: number,
  ) {}

  async play(): Promise<void> {
    try {
      for (const step of this.script.steps) await this.#step(step);
    } finally {
      const all = [...this.#retired, ...this.#connections.values()];
      await Promise.all(all.map((connection) => connection.dispose()));
    }
  }

  async #step(step: Step): Promise<void> {
    if (step.op !== 'parallel') return this.#inner(step);
    // Every inner step starts in this one synchronous loop, so none can have an answer before the last one has
    // started: that is the barrier. A step's SDK failure is its record; only a driver defect rejects, and even
    // then the other inner steps finish and write their records first.
    const settled = await Promise.allSettled(step.steps.map((inner) => this.#inner(inner)));
    const defect = settled.find((outcome) => outcome.status === 'rejected');
    if (defect !== undefined) throw defect.reason;
  }

  #options(): RequestOptions {
    return this.script.requestTimeoutMs === null ? {} : { timeout: this.script.requestTimeoutMs };
  }

  #now(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  async #inner(step: InnerStep): Promise<void> {
    switch (step.op) {
      case 'connect': {
        const spec = this.script.servers.get(step.server);
        if (spec === undefined) throw new Error(`server ${step.server} passed the script check but is unknown`);
        const previous = this.#connections.get(step.connection);
        if (previous !== undefined) this.#retired.push(previous);
        const connection = new Connection(step.connection, spec, this.script.versionMode);
        this.#connections.set(step.connection, connection);
        const sent: JsonObject = { server: step.server, version_mode: this.script.versionMode };
        if (spec.transport === 'http') {
          sent['url'] = spec.url.href;
          sent['bearer_token_env'] = spec.tokenEnv;
        }
        const api = spec.transport === 'http' ? API.connectHttp : API.connect;
        await this.#timed(step, api, sent, async () => {
          await connection.client.connect(connection.transport, this.#options());
          return { outcome: 'connected', result: null, threw: null };
        }, spec.transport);
        return;
      }
      case 'list_tools': {
        const client = this.#connection(step.connection).client;
        await this.#timed(step, API.listTools, null, async () => {
          const listed = await client.listTools(undefined, this.#options());
          return { outcome: 'listed', result: { tools: asJson(listed.tools) }, threw: null };
        });
        return;
      }
      case 'close': {
        const connection = this.#connection(step.connection);
        await this.#timed(step, API.close, null, async () => {
          await connection.close();
          return { outcome: 'closed', result: null, threw: null };
        });
        return;
      }
      case 'call':
      case 'status':
        await this.#call(step);
        return;
      case 'call_once':
        await this.#callOnce(step);
        return;
    }
  }

  async #call(step: CallStep | StatusStep): Promise<void> {
    const connection = this.#connection(step.connection);
    const tool = step.op === 'status' ? STATUS_TOOL : step.tool;
    const args: JsonObject = step.op === 'status' ? { operation_id: step.operationId } : step.arguments;
    const answer = step.op === 'call' ? step.answer : null;
    const sent = { tool, arguments: args, answer, input_responses: null, request_state: 'absent' };
    await this.#timed(step, API.call, sent, async () => {
      connection.answer = answer;
      try {
        return toolReply(await connection.client.callTool({ name: tool, arguments: args }, this.#options()));
      } finally {
        connection.answer = null;
      }
    });
  }

  async #callOnce(step: CallOnceStep): Promise<void> {
    const connection = this.#connection(step.connection);
    const params: Record<string, unknown> = { name: step.tool, arguments: step.arguments };
    if (step.inputResponses !== null) params['inputResponses'] = step.inputResponses;
    let requestState: Json = 'absent';
    if (step.state !== null) {
      const saved = this.#states.get(step.state);
      if (saved === undefined) {
        // The script check saw a save_state earlier, but that step did not get an input_required answer: there is
        // no state to send, so no SDK call is made; the record says why instead of inventing a request.
        this.#write(step, null, this.#sentOnce(step, 'absent'), this.#now(), 0, {
          outcome: 'threw',
          result: null,
          threw: {
            type: 'MissingSavedState',
            code: null,
            message: `no requestState was saved under "${step.state}" (the saving step got no input_required answer)`,
            data: null,
            cause: null,
          },
        });
        return;
      }
      const tampered = step.stateTransform === 'tamper';
      params['requestState'] = tampered ? tamper(saved) : saved;
      requestState = tampered ? 'tampered' : 'present';
    }
    const options = { ...this.#options(), allowInputRequired: true };
    const api = step.tsApi === 'request' ? API.request : API.callOnce;
    const reply = await this.#timed(step, api, this.#sentOnce(step, requestState), async () => {
      const result =
        step.tsApi === 'request'
          ? await connection.client.request({ method: 'tools/call', params }, options)
          : await connection.client.callTool(params as CallToolRequest['params'], options);
      return toolReply(result, step.saveState);
    });
    if (typeof reply.savedState === 'string' && typeof reply.requestState === 'string') {
      this.#states.set(reply.savedState, reply.requestState);
    }
  }

  #sentOnce(step: CallOnceStep, requestState: Json): JsonObject {
    return {
      tool: step.tool,
      arguments: step.arguments,
      answer: null,
      input_responses: step.inputResponses,
      request_state: requestState,
    };
  }

  #connection(name: string): Connection {
    const connection = this.#connections.get(name);
    if (connection === undefined) throw new Error(`connection ${name} passed the script check but was never made`);
    return connection;
  }

  /**
   * Runs one SDK call, turns a throw into the `threw` outcome, and writes the record as soon as it is known.
   * `transport` is given by a connect step only, whatever its outcome.
   */
  async #timed(
    step: InnerStep,
    api: string,
    sent: JsonObject | null,
    call: () => Promise<Reply>,
    transport?: 'stdio' | 'http',
  ): Promise<Reply> {
    const started = this.#now();
    const clock = performance.now();
    let reply: Reply;
    try {
      reply = await call();
    } catch (error) {
      reply = { outcome: 'threw', result: null, threw: describeThrown(error) };
    }
    this.#write(step, api, sent, started, Math.round(performance.now() - clock), reply, transport);
    return reply;
  }

  #write(
    step: InnerStep,
    api: string | null,
    sent: JsonObject | null,
    started: number,
    elapsed: number,
    reply: Reply,
    transport?: 'stdio' | 'http',
  ): void {
    const record: ClientRecord = {
      format: RECORD_FORMAT,
      client: 'typescript',
      sdk_version: this.sdkVersion,
      step: step.id,
      op: step.op,
      connection: step.connection,
      ...(transport === undefined ? {} : { transport }),
      api,
      sent,
      outcome: reply.outcome,
      result: reply.result,
      threw: reply.threw,
      saved_state: reply.savedState ?? null,
      started_ms: started,
      elapsed_ms: elapsed,
    };
    this.records.write(record);
  }
}

function toolReply(value: unknown, saveAs: string | null = null): Reply {
  const result = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const state = typeof result['requestState'] === 'string' ? result['requestState'] : null;
  const outcome: Outcome =
    result['resultType'] === 'input_required' ? 'input_required' : result['isError'] === true ? 'tool_error' : 'result';
  return {
    outcome,
    result: {
      resultType: asJson(result['resultType']),
      isError: asJson(result['isError']),
      structuredContent: asJson(result['structuredContent']),
      content: asJson(result['content']),
      request_state_length: state === null ? null : state.length,
    },
    threw: null,
    // Only an input_required answer's state is saved: a complete result has nothing to continue.
    savedState: outcome === 'input_required' && state !== null ? saveAs : null,
    requestState: outcome === 'input_required' ? state : null,
  };
}
