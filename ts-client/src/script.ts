/**
 * The step script (client-script/1, docs/client-drivers.md), read and checked as a whole before the driver starts
 * anything: a script that only fails half-way would leave servers, databases and records half-made for evidence.
 */

export type Json = null | boolean | number | string | Json[] | { [member: string]: Json };
export type JsonObject = { [member: string]: Json };

export const SCRIPT_FORMAT = 'client-script/1';

export type VersionMode = 'pin' | 'auto' | 'default';
export type TsApi = 'callTool' | 'request';

export interface StdioServerSpec {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The servers' own minimum for a bearer token. */
export const MIN_TOKEN_LENGTH = 32;

// As written in the URL: 127.1 or 0x7f.0.0.1 reach the same address, but a script should say what it means.
const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * A server the lab already runs, reached over Streamable HTTP. The token is read from the driver's environment (the
 * script, kept as evidence, names only the variable) and held in a private field, so that neither JSON.stringify nor
 * util.inspect of a spec can print it.
 */
export class HttpServerSpec {
  readonly transport = 'http';
  readonly #token: string;

  constructor(
    readonly url: URL,
    readonly tokenEnv: string,
    token: string,
  ) {
    this.#token = token;
  }

  token(): string {
    return this.#token;
  }
}

export type ServerSpec = StdioServerSpec | HttpServerSpec;

interface StepBase {
  /** The record's `step`: the index for a top-level step, "3.1" (a string) inside a parallel step. */
  readonly id: number | string;
}

export interface ConnectStep extends StepBase {
  readonly op: 'connect';
  readonly connection: string;
  readonly server: string;
}

export interface ListToolsStep extends StepBase {
  readonly op: 'list_tools';
  readonly connection: string;
}

export interface CallStep extends StepBase {
  readonly op: 'call';
  readonly connection: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly answer: JsonObject | null;
}

export interface CallOnceStep extends StepBase {
  readonly op: 'call_once';
  readonly connection: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly inputResponses: JsonObject | null;
  readonly state: string | null;
  readonly stateTransform: 'none' | 'tamper';
  readonly saveState: string | null;
  readonly tsApi: TsApi;
}

export interface StatusStep extends StepBase {
  readonly op: 'status';
  readonly connection: string;
  readonly operationId: string;
}

export interface CloseStep extends StepBase {
  readonly op: 'close';
  readonly connection: string;
}

export type InnerStep = ConnectStep | ListToolsStep | CallStep | CallOnceStep | StatusStep | CloseStep;

export interface ParallelStep extends StepBase {
  readonly op: 'parallel';
  readonly steps: readonly InnerStep[];
}

export type Step = InnerStep | ParallelStep;

export interface Script {
  readonly servers: ReadonlyMap<string, ServerSpec>;
  /** null: no `timeout` request option, so the SDK's default applies (that is how the default is measured). */
  readonly requestTimeoutMs: number | null;
  readonly versionMode: VersionMode;
  readonly steps: readonly Step[];
}

/** A script the driver cannot run; the message is the whole stderr line. */
export class ScriptError extends Error {}

const STEP_MEMBERS: Record<Step['op'], readonly string[]> = {
  connect: ['op', 'connection', 'server'],
  list_tools: ['op', 'connection'],
  call: ['op', 'connection', 'tool', 'arguments', 'answer'],
  call_once: [
    'op',
    'connection',
    'tool',
    'arguments',
    'input_responses',
    'state',
    'state_transform',
    'save_state',
    'ts_api',
  ],
  status: ['op', 'connection', 'operation_id'],
  parallel: ['op', 'steps'],
  close: ['op', 'connection'],
};

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads one JSON object's members, refusing any it does not know: a misspelt optional member would otherwise
 * silently change what a step sends. */
class Members {
  constructor(
    private readonly where: string,
    private readonly members: JsonObject,
    allowed: readonly string[],
  ) {
    for (const name of Object.keys(members)) {
      if (!allowed.includes(name)) throw this.fail(`unknown member "${name}"`);
    }
  }

  fail(problem: string): ScriptError {
    return new ScriptError(`script error: ${this.where}${problem}`);
  }

  has(name: string): boolean {
    return Object.hasOwn(this.members, name);
  }

  string(name: string): string {
    if (!this.has(name)) throw this.fail(`${name} is required`);
    const value = this.members[name];
    if (typeof value !== 'string' || value === '') throw this.fail(`${name} must be a non-empty string`);
    return value;
  }

  optionalString(name: string): string | null {
    return this.has(name) ? this.string(name) : null;
  }

  object(name: string): JsonObject {
    if (!this.has(name)) throw this.fail(`${name} is required`);
    const value = this.members[name];
    if (!isObject(value)) throw this.fail(`${name} must be an object`);
    return value;
  }

  optionalObject(name: string): JsonObject | null {
    return this.has(name) ? this.object(name) : null;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    if (!this.has(name)) return fallback;
    const value = this.members[name];
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      throw this.fail(`${name} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
    }
    return value as T;
  }
}

/** What the steps before a given step leave behind, for the "used before" checks. */
interface Scope {
  readonly open: Set<string>;
  readonly saved: Set<string>;
}

/** `environment` is the driver's own: bearer tokens are read from it while the script is checked. */
export function parseScript(text: string, environment: NodeJS.ProcessEnv = process.env): Script {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (e) {
    throw new ScriptError(`script error: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isObject(document)) throw new ScriptError('script error: the script must be a JSON object');
  const top = new Members('', document, ['format', 'servers', 'request_timeout_ms', 'version_mode', 'steps']);

  // The tag first: a script of another format version must be named as such, not by whichever member differs.
  if (document['format'] !== SCRIPT_FORMAT) {
    throw top.fail(`format must be "${SCRIPT_FORMAT}" (got ${JSON.stringify(document['format'] ?? null)})`);
  }
  const servers = parseServers(top.object('servers'), environment);

  if (!top.has('request_timeout_ms')) throw top.fail('request_timeout_ms is required (null for the SDK default)');
  const timeout = document['request_timeout_ms'];
  if (timeout !== null && !(typeof timeout === 'number' && Number.isSafeInteger(timeout) && timeout > 0)) {
    throw top.fail('request_timeout_ms must be null or a positive whole number of milliseconds');
  }
  if (!top.has('version_mode')) throw top.fail('version_mode is required');
  const versionMode = top.oneOf<VersionMode>('version_mode', ['pin', 'auto', 'default'], 'pin');

  const rawSteps = document['steps'];
  if (!Array.isArray(rawSteps)) throw top.fail('steps must be an array');
  const scope: Scope = { open: new Set(), saved: new Set() };
  const steps = rawSteps.map((raw, index) => parseStep(raw, index, servers, scope));
  return { servers, requestTimeoutMs: timeout, versionMode, steps };
}

function parseServers(raw: JsonObject, environment: NodeJS.ProcessEnv): Map<string, ServerSpec> {
  const servers = new Map<string, ServerSpec>();
  for (const [name, spec] of Object.entries(raw)) {
    const where = `servers.${name}: `;
    if (!isObject(spec)) throw new ScriptError(`script error: ${where}must be an object`);
    servers.set(name, Object.hasOwn(spec, 'url') ? parseHttpServer(where, spec, environment) : parseStdioServer(where, spec));
  }
  return servers;
}

function parseStdioServer(where: string, spec: JsonObject): StdioServerSpec {
  const members = new Members(where, spec, ['command', 'env']);
  const command = spec['command'];
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every((part) => typeof part === 'string') ||
    command[0] === ''
  ) {
    throw members.fail('command must be a non-empty array of strings');
  }
  const env: Record<string, string> = {};
  for (const [variable, value] of Object.entries(members.optionalObject('env') ?? {})) {
    if (typeof value !== 'string') throw members.fail(`env.${variable} must be a string`);
    env[variable] = value;
  }
  const [program, ...args] = command as string[];
  return { transport: 'stdio', command: program as string, args, env };
}

/**
 * The token is read here, while the script is checked, so that a missing or unusable one stops the driver before
 * any request is sent. No message ever holds the token, and none repeats a URL that might carry a password.
 */
function parseHttpServer(where: string, spec: JsonObject, environment: NodeJS.ProcessEnv): HttpServerSpec {
  const members = new Members(where, spec, ['url', 'bearer_token_env']);
  const url = loopbackUrl(members, members.string('url'));
  const variable = members.string('bearer_token_env');
  const token = environment[variable];
  if (token === undefined) throw members.fail(`bearer_token_env ${variable} is not set in the driver's environment`);
  if (token.length < MIN_TOKEN_LENGTH) {
    throw members.fail(`bearer_token_env ${variable} holds a token shorter than ${MIN_TOKEN_LENGTH} characters`);
  }
  // Both servers accept only such tokens; anything else could break the header line or land in an SDK message.
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw members.fail(`bearer_token_env ${variable} holds a character other than printable ASCII (no spaces)`);
  }
  return new HttpServerSpec(url, variable, token);
}

/**
 * Loopback only: a script must never send a token, or drive a write, to another machine. The host is checked as
 * written, because the WHATWG parser rewrites hosts (127.1 becomes 127.0.0.1); a written host that is one of the
 * three holds no backslash (which that parser reads as a slash), so the parser reads the same host.
 */
function loopbackUrl(members: Members, text: string): URL {
  // WHATWG parsing drops tabs and newlines and encodes spaces; a URL that needs that is not one a script should hold.
  if (/[\x00-\x20\x7f]/.test(text)) throw members.fail('url is not a URL');
  const written = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/.exec(text);
  if (written === null || (written[1] as string).toLowerCase() !== 'http') throw members.fail('url must be an http:// URL');
  const authority = written[2] as string;
  if (authority.includes('@')) throw members.fail('url must not carry user information');
  const host = (authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.split(':')[0]) ?? '';
  if (!LOOPBACK_HOSTS.includes(host.toLowerCase())) {
    const named = host === '' ? '' : `, not ${host}`;
    throw members.fail(`url must name a loopback host (127.0.0.1, localhost or [::1])${named}`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw members.fail('url is not a URL');
  }
  if (url.port === '0') throw members.fail('url has port 0, outside 1..65535');
  return url;
}

function parseStep(
  raw: Json,
  index: number,
  servers: ReadonlyMap<string, ServerSpec>,
  scope: Scope,
): Step {
  if (!isObject(raw)) throw new ScriptError(`script error: step ${index}: must be an object`);
  const op = raw['op'];
  if (op === 'parallel') return parseParallel(raw, index, servers, scope);
  return parseInner(raw, index, `${index}`, servers, scope, scope);
}

/**
 * Inner steps of one parallel step run at the same time, so each sees only what the steps before the parallel step
 * left (`before`); what they open, close or save counts from the next step on (`after`).
 */
function parseParallel(
  raw: JsonObject,
  index: number,
  servers: ReadonlyMap<string, ServerSpec>,
  scope: Scope,
): ParallelStep {
  const members = new Members(`step ${index} (parallel): `, raw, STEP_MEMBERS.parallel);
  const inner = raw['steps'];
  if (!Array.isArray(inner) || inner.length === 0) throw members.fail('steps must be a non-empty array');
  const before: Scope = { open: new Set(scope.open), saved: new Set(scope.saved) };
  const used = new Map<string, string>();
  const steps = inner.map((child, position) => {
    const label = `${index}.${position}`;
    if (!isObject(child)) throw new ScriptError(`script error: step ${label}: must be an object`);
    if (child['op'] === 'parallel') {
      throw new ScriptError(`script error: step ${label} (parallel): a parallel step cannot contain another one`);
    }
    const step = parseInner(child, label, label, servers, before, scope);
    const earlier = used.get(step.connection);
    if (earlier !== undefined) {
      throw new ScriptError(
        `script error: step ${label} (${step.op}): connection "${step.connection}" is already used by step ${earlier} of this parallel step`,
      );
    }
    used.set(step.connection, label);
    return step;
  });
  return { id: index, op: 'parallel', steps };
}

function parseInner(
  raw: JsonObject,
  id: number | string,
  label: string,
  servers: ReadonlyMap<string, ServerSpec>,
  before: Scope,
  after: Scope,
): InnerStep {
  if (!Object.hasOwn(raw, 'op')) throw new ScriptError(`script error: step ${label}: op is required`);
  const op = raw['op'];
  if (typeof op !== 'string' || !Object.hasOwn(STEP_MEMBERS, op)) {
    throw new ScriptError(`script error: step ${label}: unknown op ${JSON.stringify(op)}`);
  }
  const kind = op as InnerStep['op'];
  const members = new Members(`step ${label} (${kind}): `, raw, STEP_MEMBERS[kind]);
  const connection = members.string('connection');

  if (kind === 'connect') {
    const server = members.string('server');
    if (!servers.has(server)) throw members.fail(`unknown server "${server}"`);
    if (before.open.has(connection)) throw members.fail(`connection "${connection}" is already connected`);
    after.open.add(connection);
    return { id, op: kind, connection, server };
  }
  if (!before.open.has(connection)) {
    throw members.fail(`connection "${connection}" is used before it is connected`);
  }
  switch (kind) {
    case 'list_tools':
      return { id, op: kind, connection };
    case 'close':
      after.open.delete(connection);
      return { id, op: kind, connection };
    case 'status':
      return { id, op: kind, connection, operationId: members.string('operation_id') };
    case 'call':
      return {
        id,
        op: kind,
        connection,
        tool: members.string('tool'),
        arguments: members.object('arguments'),
        answer: members.optionalObject('answer'),
      };
    case 'call_once': {
      const tool = members.string('tool');
      const args = members.object('arguments');
      const inputResponses = members.optionalObject('input_responses');
      const state = members.optionalString('state');
      if (state !== null && !before.saved.has(state)) throw members.fail(`state "${state}" is used before it is saved`);
      if (state === null && members.has('state_transform')) throw members.fail('state_transform needs a state');
      const stateTransform = members.oneOf('state_transform', ['none', 'tamper'] as const, 'none');
      const saveState = members.optionalString('save_state');
      const tsApi = members.oneOf<TsApi>('ts_api', ['callTool', 'request'], 'callTool');
      if (saveState !== null) after.saved.add(saveState);
      return { id, op: kind, connection, tool, arguments: args, inputResponses, state, stateTransform, saveState, tsApi };
    }
  }
}
