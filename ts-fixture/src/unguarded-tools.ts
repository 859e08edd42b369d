/**
 * The unguarded control (`--unguarded`): the same SDK server, the same two rounds, the same sealed and bound
 * requestState, and the same bridge, but the continuation writes through the bridge's `create` op, which adds an
 * issue on every call and keeps no operation row. `lab bench` compares the guarded fixture with it, so the figure is
 * the guard's cost alone, not the bridge's or the SDK's. The matrix's controls stay the Java server's.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type CallToolResult,
  inputRequired,
  type InputRequiredResult,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { BridgeCaller } from './bridge-client.js';
import { isCanonicalToken } from './bound-request-state.js';
import { canonicalJson } from './canonical-json.js';
import { isPlainObject } from './fingerprint.js';
import { callBridge, type CompiledTool, compileTool } from './guarded-tools.js';
import { MAX_TEXT_LENGTH } from './guarded-arguments.js';
import { acceptedBody, InvalidInputResponses, normalisedResponses } from './input-responses.js';
import type { ToolCallArguments } from './tool-call-arguments.js';
import { shippedToolTable, toolDeclarations } from './tool-table.js';
import { complete, toolError } from './tool-results.js';

export const UNGUARDED_TOOL = 'create_issue';

/** What the control signs: the tool, its arguments' digest and a nonce, so two first rounds are two states. */
interface UnguardedPayload {
  readonly tool: string;
  readonly arguments_digest: string;
  readonly nonce: string;
}

/** Lowercase hex SHA-256 of canonicalJson({title}): the control binds its only argument as the guarded tool does. */
export function titleDigest(args: unknown): string {
  if (!isPlainObject(args)) throw new TypeError('tool arguments must be an object');
  return createHash('sha256').update(canonicalJson({ title: args['title'] }), 'utf8').digest('hex');
}

/** The table's unguarded tool (vectors/rules/tools.json, "unguarded"), compiled once per process. */
export const UNGUARDED_TOOLS: CompiledTool<{ title: string }> = compileTool(
  toolDeclarations(shippedToolTable(), 'unguarded', [UNGUARDED_TOOL])[0]!,
);

/**
 * The verify hook for the control's state: the codec's MAC, expiry and principal, the canonical spelling, and then
 * this tool and these arguments, as the guarded hook checks them. A failure throws, so the SDK refuses with -32602.
 */
export function unguardedStateVerify(
  codec: RequestStateCodec<unknown>,
  calls: Pick<ToolCallArguments, 'take'>,
): (state: string, ctx: ServerContext) => Promise<UnguardedPayload> {
  return async (state, ctx) => {
    const call = calls.take(ctx.mcpReq.id);
    if (!isCanonicalToken(state)) throw new Error('not the canonical spelling of a token');
    const payload: unknown = await codec.verify(state, ctx);
    if (!isPlainObject(payload) || typeof payload['tool'] !== 'string' || typeof payload['arguments_digest'] !== 'string') {
      throw new Error('payload');
    }
    if (call === undefined) throw new Error('no recorded tool call for this request');
    if (call.name !== payload['tool']) throw new Error('minted for another tool');
    let digest: string;
    try {
      digest = titleDigest(call.arguments);
    } catch {
      throw new Error('arguments cannot be digested');
    }
    if (digest !== payload['arguments_digest']) throw new Error('minted for other arguments');
    return payload as unknown as UnguardedPayload;
  };
}

export interface UnguardedToolsContext {
  readonly codec: RequestStateCodec<unknown>;
  readonly bridge: BridgeCaller;
}

export function registerUnguardedTools(server: McpServer, context: UnguardedToolsContext, tool = UNGUARDED_TOOLS): void {
  const { description, inputSchema } = tool;
  server.registerTool(UNGUARDED_TOOL, { description, inputSchema }, (args, ctx) => createIssue(context, args, ctx));
}

async function createIssue(
  context: UnguardedToolsContext,
  args: { title: string },
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const { title } = args;
  if (typeof title !== 'string' || title === '') return toolError('title is required');
  if (title.length > MAX_TEXT_LENGTH) return toolError(`title is longer than ${MAX_TEXT_LENGTH} characters`);
  const responses = ctx.mcpReq.inputResponses;
  const payload = ctx.mcpReq.requestState<UnguardedPayload>();
  if (responses === undefined) {
    if (payload !== undefined) return toolError('requestState without input responses');
    const minted: UnguardedPayload = {
      tool: UNGUARDED_TOOL,
      arguments_digest: titleDigest(args),
      nonce: randomBytes(16).toString('hex'),
    };
    return inputRequired({
      inputRequests: {
        body: inputRequired.elicit({
          message: `Body for ${title}?`,
          requestedSchema: { type: 'object', properties: { body: { type: 'string' } }, required: ['body'] },
        }),
      },
      requestState: await context.codec.mint(minted, ctx),
    });
  }
  if (payload === undefined) return toolError('unsupported continuation: input responses require requestState');
  let body: string;
  try {
    body = acceptedBody(responses, ctx.mcpReq.droppedInputResponseKeys ?? []);
  } catch (error) {
    if (error instanceof InvalidInputResponses) return toolError(error.message);
    throw error;
  }
  const answer = await callBridge(context.bridge, { op: 'create', title, body, responses: normalisedResponses(body) });
  return answer.ok ? complete(answer.result) : answer.failure;
}
