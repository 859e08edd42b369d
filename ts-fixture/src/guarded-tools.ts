/**
 * The two tools of the guarded fixture (seed spec §8.1): create_guarded_issue, a two-round MRTR call whose
 * continuation applies once through the bridge, and get_operation_status, the authoritative read-back.
 */
import {
  type CallToolResult,
  fromJsonSchema,
  inputRequired,
  type InputRequiredResult,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { type BridgeAnswer, type BridgeCaller, BridgeMachineryFailure } from './bridge-client.js';
import { type ContinuationPayload, GUARDED_TOOL, mintPayload } from './continuation-payload.js';
import { argumentsDigest, type GuardedArguments, guardedArguments, InvalidArguments } from './guarded-arguments.js';
import { acceptedBody, InvalidInputResponses, normalisedResponses } from './input-responses.js';
import { shippedToolTable, type ToolDeclaration, toolDeclarations } from './tool-table.js';
import { bridgeErrorText, complete, INVALID_REQUEST_STATE, toolError } from './tool-results.js';
import type { FixtureConfig } from './trusted-environment.js';

export const STATUS_TOOL = 'get_operation_status';
export const DROP_AFTER_COMMIT_EXIT = 70;

export interface GuardedToolsContext {
  readonly config: FixtureConfig;
  readonly codec: RequestStateCodec<unknown>;
  readonly bridge: BridgeCaller;
  /** Ends the process without a reply (drop-after-commit). */
  readonly exit: (status: number) => void;
  /** Destroys the connection the current call came on, without a reply (HTTP's close-after-commit). */
  readonly closeConnection?: () => void;
}

export interface CreateArguments {
  operation_id: string;
  title: string;
  mode?: 'atomic' | 'partial';
}

/** A fresh object per request: the SDK may keep a reference to what it is given. */
function bodySchema() {
  return { type: 'object' as const, properties: { body: { type: 'string' as const } }, required: ['body'] };
}

/** A tool of the table with its schemas compiled for the SDK. */
export interface CompiledTool<Input> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: StandardSchemaWithJSON<Input, Input>;
  readonly outputSchema?: StandardSchemaWithJSON;
}

/** Both tools, and the order the table lists them in (the order of tools/list). */
export interface GuardedToolSet {
  readonly order: readonly string[];
  readonly create: CompiledTool<CreateArguments>;
  readonly status: CompiledTool<{ operation_id: string }>;
}

/** A table tool's schemas compiled for the SDK (Ajv, inside fromJsonSchema); the unguarded control uses it too. */
export function compileTool<Input>(tool: ToolDeclaration): CompiledTool<Input> {
  const { name, description } = tool;
  const inputSchema = fromJsonSchema<Input>(tool.inputSchema);
  return tool.outputSchema === undefined
    ? { name, description, inputSchema }
    : { name, description, inputSchema, outputSchema: fromJsonSchema(tool.outputSchema) };
}

/** The table's guarded tools (vectors/rules/tools.json), their schemas compiled for the SDK. */
export function compileGuardedTools(table: unknown): GuardedToolSet {
  const declared = toolDeclarations(table, 'guarded', [GUARDED_TOOL, STATUS_TOOL]);
  const named = (name: string) => declared.find((tool) => tool.name === name) as ToolDeclaration;
  return {
    order: declared.map((tool) => tool.name),
    create: compileTool<CreateArguments>(named(GUARDED_TOOL)),
    status: compileTool<{ operation_id: string }>(named(STATUS_TOOL)),
  };
}

/**
 * The shipped table's tools, compiled once per process. Over HTTP each request registers the tools on a server of
 * its own, and compiling these validators (Ajv, inside fromJsonSchema) per registration was the largest part of the
 * fixture's CPU per HTTP request (a third of it, in a --cpu-prof of sequential calls). A compiled validator holds no
 * state of a request.
 */
export const GUARDED_TOOLS = compileGuardedTools(shippedToolTable());
export const CREATE_INPUT = GUARDED_TOOLS.create.inputSchema;

/** registerTool's config: outputSchema only when the table declares one. */
function config<Input>(tool: CompiledTool<Input>) {
  const { description, inputSchema, outputSchema } = tool;
  return outputSchema === undefined ? { description, inputSchema } : { description, inputSchema, outputSchema };
}

/** Registers both tools as `tools` declares them (the shipped table unless a test gives another), in its order. */
export function registerGuardedTools(server: McpServer, context: GuardedToolsContext, tools = GUARDED_TOOLS): void {
  for (const name of tools.order) {
    if (name === GUARDED_TOOL) {
      server.registerTool(GUARDED_TOOL, config(tools.create), (args, ctx) => createGuardedIssue(context, args, ctx));
    } else {
      server.registerTool(STATUS_TOOL, config(tools.status), async ({ operation_id }) => {
        const answer = await callBridge(context.bridge, { op: 'status', operation_id });
        return answer.ok ? complete(answer.result) : answer.failure;
      });
    }
  }
}

async function createGuardedIssue(
  context: GuardedToolsContext,
  raw: CreateArguments,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  let args: GuardedArguments;
  try {
    args = guardedArguments(raw.operation_id, raw.title, raw.mode);
  } catch (error) {
    if (error instanceof InvalidArguments) return toolError(error.message);
    throw error;
  }
  const responses = ctx.mcpReq.inputResponses;
  // The verify hook's decoded payload: present only if the MAC, expiry, principal, tool and arguments all held.
  const payload = ctx.mcpReq.requestState<ContinuationPayload>();
  if (responses === undefined) {
    if (payload !== undefined) return toolError('requestState without input responses');
    return firstRound(context, args, ctx);
  }
  if (payload === undefined) return toolError('unsupported continuation: input responses require requestState');
  // Already checked by the verify hook; checked again so the handler never relies on how it was reached.
  if (payload.tool !== GUARDED_TOOL || payload.arguments_digest !== argumentsDigest(args)) {
    return toolError(INVALID_REQUEST_STATE);
  }
  let body: string;
  try {
    body = acceptedBody(responses, ctx.mcpReq.droppedInputResponseKeys ?? []);
  } catch (error) {
    if (error instanceof InvalidInputResponses) return toolError(error.message);
    throw error;
  }
  const answer = await callBridge(context.bridge, {
    op: 'apply',
    operation_id: args.operation_id,
    title: args.title,
    mode: args.mode,
    body,
    state: payload.state,
    responses: normalisedResponses(body),
  });
  if (!answer.ok) return answer.failure;
  if (context.config.fault === 'drop-after-commit' && answer.result['replayed'] === false) {
    process.stderr.write('drop-after-commit: the effect is committed; exiting before the reply\n');
    context.exit(DROP_AFTER_COMMIT_EXIT);
  }
  if (context.config.fault === 'close-after-commit' && answer.result['replayed'] === false) {
    process.stderr.write('close-after-commit: the effect is committed; closing the connection before the reply\n');
    // The SDK still writes its reply, into a destroyed socket, where it goes nowhere.
    context.closeConnection?.();
  }
  return complete(answer.result);
}

async function firstRound(
  context: GuardedToolsContext,
  args: GuardedArguments,
  ctx: ServerContext,
): Promise<InputRequiredResult> {
  const { config } = context;
  const payload = mintPayload(args, {
    now: config.clockEpoch,
    authorityTtl: config.authorityTtl,
    replayRetentionTtl: config.replayRetentionTtl,
  });
  return inputRequired({
    inputRequests: {
      body: inputRequired.elicit({ message: `Body for ${args.title}?`, requestedSchema: bodySchema() }),
    },
    requestState: await context.codec.mint(payload, ctx),
  });
}

export type Called = { ok: true; result: Record<string, unknown> } | { ok: false; failure: CallToolResult };

/** One bridge call; a machinery failure or a bridge error becomes the isError result the client sees. */
export async function callBridge(bridge: BridgeCaller, request: Record<string, unknown>): Promise<Called> {
  let answer: BridgeAnswer;
  try {
    answer = await bridge.call(request);
  } catch (error) {
    if (error instanceof BridgeMachineryFailure) return { ok: false, failure: toolError(error.message) };
    throw error;
  }
  if (answer.ok) return { ok: true, result: answer.result };
  return { ok: false, failure: toolError(bridgeErrorText(answer.error, answer.detail)) };
}
