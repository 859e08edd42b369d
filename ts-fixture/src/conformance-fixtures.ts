/**
 * The fixtures the official conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, requirements
 * 2026-07-28) calls by name, registered beside the guarded tools when the fixture runs with `--conformance`. Texts and
 * shapes follow each scenario's stated server requirements; none of these fixtures has an effect.
 *
 * The multi-round fixtures seal every requestState they issue (fixture-state.ts) and read their progress only from
 * the opened payload, never from what the client re-sends. test_input_required_result_elicitation is the one
 * exception on purpose: the suite's ignore-extra-params and missing-input-response scenarios continue it without any
 * requestState and expect it to complete, or to ask again, so it issues none and any state sent to it is refused.
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  fromJsonSchema,
  type GetPromptResult,
  inputRequired,
  type InputRequest,
  type InputRequiredResult,
  inputResponse,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
  type ServerNotifier,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { type FixturePayload, type FixtureStates, FixtureStateRefused } from './fixture-state.js';

export const TOOLS_CALL = 'tools/call';
export const PROMPTS_GET = 'prompts/get';

const ELICITATION = 'test_input_required_result_elicitation';
const SAMPLING = 'test_input_required_result_sampling';
const LIST_ROOTS = 'test_input_required_result_list_roots';
const REQUEST_STATE = 'test_input_required_result_request_state';
const MULTIPLE_INPUTS = 'test_input_required_result_multiple_inputs';
const MULTI_ROUND = 'test_input_required_result_multi_round';
const TAMPERED_STATE = 'test_input_required_result_tampered_state';
const CAPABILITIES = 'test_input_required_result_capabilities';
const MISSING_CAPABILITY = 'test_missing_capability';
const STREAMING_ELICITATION = 'test_streaming_elicitation';
const MRTR_PROMPT = 'test_input_required_result_prompt';

/** Tools whose every requestState is sealed; a continuation of one must carry its state. */
export const SEALED_TOOLS: ReadonlySet<string> = new Set([
  SAMPLING,
  LIST_ROOTS,
  REQUEST_STATE,
  MULTIPLE_INPUTS,
  MULTI_ROUND,
  TAMPERED_STATE,
  CAPABILITIES,
  MISSING_CAPABILITY,
  STREAMING_ELICITATION,
]);
export const SEALED_PROMPTS: ReadonlySet<string> = new Set([MRTR_PROMPT]);
/** Multi-round fixtures that issue no state (see the module comment). */
export const STATELESS_FIXTURES: ReadonlySet<string> = new Set([ELICITATION]);

/** Whether a (method, name) is a multi-round fixture whose continuations must carry a sealed state. */
export function isSealedFixture(method: string, name: unknown): boolean {
  if (typeof name !== 'string') return false;
  return method === TOOLS_CALL ? SEALED_TOOLS.has(name) : method === PROMPTS_GET && SEALED_PROMPTS.has(name);
}

/** Whether the profile's verify hook, rather than the guarded tools', judges a state sent with this request. */
export function isFixtureRequest(method: string, name: unknown): boolean {
  if (method === PROMPTS_GET) return true;
  return method === TOOLS_CALL && typeof name === 'string' && (SEALED_TOOLS.has(name) || STATELESS_FIXTURES.has(name));
}

/** A state sent to a fixture that never issues one cannot be its own, whatever it holds. */
export function refuseStatelessFixtureState(name: unknown): never {
  throw new FixtureStateRefused(`${String(name)} issues no requestState`);
}

// A 1×1 PNG and a 1 ms WAV, made for these fixtures.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const WAV_BASE64 = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==';

export interface FixtureRequest {
  readonly method: string;
  readonly name: unknown;
  readonly arguments: unknown;
}

export interface ConformanceFixtureContext {
  readonly states: FixtureStates;
  /** This HTTP request's method, name and arguments as sent, so a minted state digests exactly what comes back. */
  readonly request: FixtureRequest | undefined;
  /** The handler's subscription notifier (for the list-changed triggers); read when a trigger runs. */
  readonly notifier: () => ServerNotifier;
}

const text = (value: string) => ({ type: 'text' as const, text: value });
const done = (...lines: string[]): CallToolResult => ({ content: lines.map(text) });

function stringSchema(properties: Record<string, string>) {
  return {
    type: 'object' as const,
    properties: Object.fromEntries(Object.keys(properties).map((key) => [key, { type: 'string' as const }])),
    required: Object.keys(properties),
  };
}

/** Elicitation builders, fresh per call: the SDK may keep a reference to what it is given. */
const ask = {
  name: (message: string) => inputRequired.elicit({ message, requestedSchema: stringSchema({ name: '' }) }),
  color: () =>
    inputRequired.elicit({
      message: 'Step 2: What is your favorite color?',
      requestedSchema: stringSchema({ color: '' }),
    }),
  confirm: (message: string) =>
    inputRequired.elicit({
      message,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    }),
  sample: (prompt: string, maxTokens: number) =>
    inputRequired.createMessage({ messages: [{ role: 'user', content: text(prompt) }], maxTokens }),
  roots: () => inputRequired.listRoots(),
};

function acceptedString(responses: Record<string, unknown> | undefined, key: string, field: string): string | undefined {
  const view = inputResponse(responses, key);
  if (view.kind !== 'elicit' || view.action !== 'accept') return undefined;
  const value = view.content?.[field];
  return typeof value === 'string' ? value : undefined;
}

function acceptedContent(responses: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  const view = inputResponse(responses, key);
  return view.kind === 'elicit' && view.action === 'accept' ? (view.content ?? {}) : undefined;
}

function sampledText(responses: Record<string, unknown> | undefined, key: string): string | undefined {
  const view = inputResponse(responses, key);
  if (view.kind !== 'sampling') return undefined;
  const blocks = Array.isArray(view.result.content) ? view.result.content : [view.result.content];
  const first = blocks.find((block) => block.type === 'text');
  return first !== undefined && 'text' in first && typeof first.text === 'string' ? first.text : undefined;
}

function rootUris(responses: Record<string, unknown> | undefined, key: string): string[] | undefined {
  const view = inputResponse(responses, key);
  return view.kind === 'roots' ? view.roots.map((root) => root.uri) : undefined;
}

/**
 * One sealed multi-round fixture: `step` gets the opened payload's data (undefined on a first round) and the
 * responses, and either finishes or asks again; asking again always carries a freshly sealed state.
 */
type Step<R> = (
  data: unknown,
  responses: Record<string, unknown> | undefined,
  ctx: ServerContext,
) => { finish: R } | { ask: Record<string, InputRequest>; data: unknown };

async function runSealed<R>(
  context: ConformanceFixtureContext,
  method: string,
  name: string,
  ctx: ServerContext,
  step: Step<R>,
): Promise<R | InputRequiredResult> {
  const payload = ctx.mcpReq.requestState<FixturePayload>();
  // The verify hook has already matched method, name, arguments, principal and expiry; checked again here so the
  // handler never relies on how it was reached.
  if (payload !== undefined && (payload.method !== method || payload.name !== name)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
      reason: 'invalid_request_state',
    });
  }
  const outcome = step(payload?.data, payload === undefined ? undefined : ctx.mcpReq.inputResponses, ctx);
  if ('finish' in outcome) return outcome.finish;
  const call = { method, name, arguments: context.request?.arguments };
  return inputRequired({ inputRequests: outcome.ask, requestState: await context.states.seal(call, outcome.data, ctx) });
}

export function registerConformanceFixtures(server: McpServer, context: ConformanceFixtureContext): void {
  registerContentTools(server, context);
  registerInputRequiredTools(server, context);
  registerPrompts(server, context);
  registerResources(server);
}

function registerContentTools(server: McpServer, context: ConformanceFixtureContext): void {
  const tool = (name: string, description: string, run: (ctx: ServerContext) => CallToolResult | Promise<CallToolResult>) =>
    server.registerTool(name, { description }, (ctx) => run(ctx));
  tool('test_simple_text', 'Returns one text block.', () => done('This is a simple text response for testing.'));
  tool('test_image_content', 'Returns one PNG image.', () => ({
    content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }],
  }));
  tool('test_audio_content', 'Returns one WAV clip.', () => ({
    content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }],
  }));
  tool('test_embedded_resource', 'Returns an embedded text resource.', () => ({
    content: [
      {
        type: 'resource',
        resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
      },
    ],
  }));
  tool('test_multiple_content_types', 'Returns text, an image and an embedded resource.', () => ({
    content: [
      text('Multiple content types test:'),
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  }));
  tool('test_error_handling', 'Always fails, as a tool error result.', () => ({
    content: [text('This tool intentionally returns an error for testing')],
    isError: true,
  }));
  tool('test_tool_with_progress', 'Reports progress 0, 50 and 100 of 100 when given a progress token.', async (ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (token !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, total: 100 } });
      }
      if (progress < 100) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return done(token === undefined ? 'Progress tool finished (no progress token).' : 'Progress tool finished.');
  });
  tool('test_logging_tool', 'Logs at info level; the SDK sends nothing unless the request asked for a log level.', async (ctx) => {
    await ctx.mcpReq.log('info', 'test_logging_tool ran');
    return done('Logging tool finished.');
  });
  tool('test_trigger_tool_change', 'Announces a tool list change to open subscriptions.', () => {
    context.notifier().toolsChanged();
    return done('Tool list change announced.');
  });
  tool('test_trigger_prompt_change', 'Announces a prompt list change to open subscriptions.', () => {
    context.notifier().promptsChanged();
    return done('Prompt list change announced.');
  });
}

function registerInputRequiredTools(server: McpServer, context: ConformanceFixtureContext): void {
  const sealed = <R extends CallToolResult>(name: string, description: string, step: Step<R>) =>
    server.registerTool(name, { description }, (ctx) => runSealed(context, TOOLS_CALL, name, ctx, step));

  server.registerTool(
    ELICITATION,
    { description: 'Asks for a name (user_name) and greets it; issues no requestState.' },
    (ctx) => {
      const name = acceptedString(ctx.mcpReq.inputResponses, 'user_name', 'name');
      if (name !== undefined) return done(`Hello, ${name}!`);
      // No answer to user_name (none, another key, not an accepted form): ask again, as SEP-2322 recommends.
      return inputRequired({ inputRequests: { user_name: ask.name('What is your name?') } });
    },
  );
  sealed(SAMPLING, 'Asks the client to sample an answer (capital_question).', (data, responses) => {
    const answer = data === 'asked' ? sampledText(responses, 'capital_question') : undefined;
    if (answer !== undefined) return { finish: done(`Sampling response: ${answer}`) };
    return { ask: { capital_question: ask.sample('What is the capital of France?', 100) }, data: 'asked' };
  });
  sealed(LIST_ROOTS, "Asks for the client's roots (client_roots).", (data, responses) => {
    const roots = data === 'asked' ? rootUris(responses, 'client_roots') : undefined;
    if (roots !== undefined) return { finish: done(`Client roots: ${roots.length === 0 ? '(none)' : roots.join(', ')}`) };
    return { ask: { client_roots: ask.roots() }, data: 'asked' };
  });
  sealed(REQUEST_STATE, 'Asks for a confirmation (confirm) and says state-ok once its sealed state came back.', (data, responses) => {
    const answer = data === 'asked' ? acceptedContent(responses, 'confirm') : undefined;
    if (answer !== undefined) return { finish: done(`state-ok: the requestState verified; ok=${JSON.stringify(answer['ok'])}`) };
    return { ask: { confirm: ask.confirm('Please confirm') }, data: 'asked' };
  });
  sealed(MULTIPLE_INPUTS, 'Asks for a name, a sampled greeting and the roots in one round.', (data, responses) => {
    if (data === 'asked') {
      const name = acceptedString(responses, 'user_name', 'name');
      const greeting = sampledText(responses, 'greeting');
      const roots = rootUris(responses, 'client_roots');
      if (name !== undefined && greeting !== undefined && roots !== undefined) {
        return { finish: done(`name=${name}; greeting=${greeting}; roots=${roots.join(', ')}`) };
      }
    }
    return {
      ask: {
        user_name: ask.name('What is your name?'),
        greeting: ask.sample('Generate a greeting', 50),
        client_roots: ask.roots(),
      },
      data: 'asked',
    };
  });
  sealed(MULTI_ROUND, 'Asks for a name (step1), then a colour (step2), each round with a new sealed state.', (data, responses) => {
    if (data !== null && typeof data === 'object' && typeof (data as { name?: unknown }).name === 'string') {
      const { name } = data as { name: string };
      const color = acceptedString(responses, 'step2', 'color');
      if (color !== undefined) return { finish: done(`${name} likes ${color}.`) };
      return { ask: { step2: ask.color() }, data: { name } };
    }
    const name = data === 'step1' ? acceptedString(responses, 'step1', 'name') : undefined;
    if (name !== undefined) return { ask: { step2: ask.color() }, data: { name } };
    return { ask: { step1: ask.name('Step 1: What is your name?') }, data: 'step1' };
  });
  sealed(TAMPERED_STATE, 'Asks for a confirmation; a continuation whose state fails verification is refused.', (data, responses) => {
    const answer = data === 'asked' ? acceptedContent(responses, 'confirm') : undefined;
    if (answer !== undefined) return { finish: done('The requestState verified.') };
    return { ask: { confirm: ask.confirm('Please confirm') }, data: 'asked' };
  });
  sealed(CAPABILITIES, "Asks only for what the request's client capabilities declare.", (data, responses, ctx) => {
    // The SDK types the envelope as an empty record; the capabilities are the request's own declaration.
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    const declared = (envelope[CLIENT_CAPABILITIES_META_KEY] ?? {}) as Record<string, unknown>;
    if (data === 'asked' && responses !== undefined) {
      return { finish: done(`Answered: ${Object.keys(responses).sort().join(', ') || '(nothing)'}`) };
    }
    const requests: Record<string, InputRequest> = {};
    if (declared['elicitation'] !== undefined) requests['user_name'] = ask.name('What is your name?');
    if (declared['sampling'] !== undefined) requests['greeting'] = ask.sample('Generate a greeting', 50);
    if (declared['roots'] !== undefined) requests['client_roots'] = ask.roots();
    if (Object.keys(requests).length === 0) {
      return { finish: done('The client declared none of elicitation, sampling and roots; nothing to ask.') };
    }
    return { ask: requests, data: 'asked' };
  });
  // Needs sampling whatever the client declared, so a client without it gets the SDK's -32021.
  sealed(MISSING_CAPABILITY, 'Always asks for sampling.', (data, responses) => {
    const answer = data === 'asked' ? sampledText(responses, 'sample') : undefined;
    if (answer !== undefined) return { finish: done(`Sampled: ${answer}`) };
    return { ask: { sample: ask.sample('Say something', 20) }, data: 'asked' };
  });
  sealed(STREAMING_ELICITATION, 'Asks for a name by input_required, never by a request of its own.', (data, responses) => {
    const name = data === 'asked' ? acceptedString(responses, 'user_name', 'name') : undefined;
    if (name !== undefined) return { finish: done(`Hello, ${name}!`) };
    return { ask: { user_name: ask.name('What is your name?') }, data: 'asked' };
  });
}

function registerPrompts(server: McpServer, context: ConformanceFixtureContext): void {
  const user = (content: GetPromptResult['messages'][number]['content']) => ({ role: 'user' as const, content });
  server.registerPrompt('test_simple_prompt', { description: 'A prompt without arguments.' }, () => ({
    messages: [user(text('This is a simple prompt for testing.'))],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two required arguments.',
      argsSchema: fromJsonSchema<{ arg1: string; arg2: string }>({
        type: 'object',
        properties: { arg1: { type: 'string', description: 'First test argument' }, arg2: { type: 'string', description: 'Second test argument' } },
        required: ['arg1', 'arg2'],
      }),
    },
    ({ arg1, arg2 }) => ({ messages: [user(text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`))] }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt that embeds the resource it is given.',
      argsSchema: fromJsonSchema<{ resourceUri: string }>({
        type: 'object',
        properties: { resourceUri: { type: 'string', description: 'URI of the resource to embed' } },
        required: ['resourceUri'],
      }),
    },
    ({ resourceUri }) => ({
      messages: [
        user({ type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } }),
        user(text('Please process the embedded resource above.')),
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image.' }, () => ({
    messages: [user({ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }), user(text('Please analyze the image above.'))],
  }));
  server.registerPrompt(
    MRTR_PROMPT,
    { description: 'Asks for the context (user_context) before it returns its messages.' },
    (ctx) =>
      runSealed<GetPromptResult>(context, PROMPTS_GET, MRTR_PROMPT, ctx, (data, responses) => {
        const contextText = data === 'asked' ? acceptedString(responses, 'user_context', 'context') : undefined;
        if (contextText !== undefined) return { finish: { messages: [user(text(`Use this context: ${contextText}`))] } };
        return {
          ask: {
            user_context: inputRequired.elicit({
              message: 'What context should the prompt use?',
              requestedSchema: stringSchema({ context: '' }),
            }),
          },
          data: 'asked',
        };
      }),
  );
}

function registerResources(server: McpServer): void {
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A fixed text resource.', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A fixed PNG resource.', mimeType: 'image/png' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG_BASE64 }] }),
  );
  server.registerResource(
    'template-data',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'JSON data for any id.', mimeType: 'application/json' },
    (uri, variables) => {
      const id = String(variables['id']);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
          },
        ],
      };
    },
  );
}

const COMPLETIONS: Record<string, readonly string[]> = {
  arg1: ['paris', 'park', 'party', 'test', 'testing'],
  arg2: ['world', 'wonder', 'work'],
};

/** `completion/complete` for test_prompt_with_arguments; any other reference completes to nothing. */
export function completeFixtureArgument(params: {
  ref: { type: string; name?: string };
  argument: { name: string; value: string };
}): { completion: { values: string[]; total: number; hasMore: boolean } } {
  const candidates =
    params.ref.type === 'ref/prompt' && params.ref.name === 'test_prompt_with_arguments'
      ? (COMPLETIONS[params.argument.name] ?? [])
      : [];
  const values = candidates.filter((value) => value.startsWith(params.argument.value));
  return { completion: { values, total: values.length, hasMore: false } };
}
