"""The conformance profile (`--http PORT --conformance`): the fixtures the official conformance suite
(@modelcontextprotocol/conformance 0.2.0-alpha.12, requirements 2026-07-28) calls by name, on the Python SDK's
low-level Server beside the guarded tools, with the TypeScript and Go fixtures' list and texts
(ts-fixture/src/conformance-fixtures.ts, go-fixture/internal/conformance/fixtures.go). None of them has an effect.

The multi-round fixtures seal every requestState they issue (conformance_state.py, inside the SDK's boundary) and read
their progress only from the opened payload, never from what the client re-sends. test_input_required_result_elicitation
is the one exception, forced by the suite: its ignore-extra-params and missing-input-response scenarios continue it
without any requestState and expect it to complete or ask again, so it issues none, and a state sent to it is refused.

`install` is called only when the profile is on, so a server started without it serves exactly the guarded tools.
"""

import json
import re
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Union

import anyio
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.subscriptions import PromptsListChanged, ToolsListChanged
from mcp_types import (
    INVALID_PARAMS,
    AudioContent,
    BlobResourceContents,
    CallToolRequestParams,
    CallToolResult,
    CompleteRequestParams,
    CompleteResult,
    Completion,
    CreateMessageRequest,
    CreateMessageRequestParams,
    ElicitRequest,
    ElicitRequestFormParams,
    EmbeddedResource,
    GetPromptRequestParams,
    GetPromptResult,
    ImageContent,
    InputRequiredResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListRootsRequest,
    ListToolsResult,
    PaginatedRequestParams,
    Prompt,
    PromptArgument,
    PromptMessage,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    SamplingMessage,
    SubscriptionsListenRequestParams,
    TextContent,
    TextResourceContents,
    Tool,
)

from .conformance_state import FixtureCall, FixtureStateRefused, FixtureStates
from .guarded_tools import MISSING_CAPABILITY, declares_form_elicitation, invalid_request_state

TOOLS_CALL = "tools/call"
PROMPTS_GET = "prompts/get"
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"

ELICITATION = "test_input_required_result_elicitation"
SAMPLING = "test_input_required_result_sampling"
LIST_ROOTS = "test_input_required_result_list_roots"
REQUEST_STATE = "test_input_required_result_request_state"
MULTIPLE_INPUTS = "test_input_required_result_multiple_inputs"
MULTI_ROUND = "test_input_required_result_multi_round"
TAMPERED_STATE = "test_input_required_result_tampered_state"
CAPABILITIES = "test_input_required_result_capabilities"
MISSING_CAPABILITY_TOOL = "test_missing_capability"
STREAMING_ELICITATION = "test_streaming_elicitation"
MRTR_PROMPT = "test_input_required_result_prompt"
ARGUMENTS_PROMPT = "test_prompt_with_arguments"

# A 1x1 PNG and a 1 ms WAV, made for these fixtures (the same bytes as the other profiles).
PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
WAV_BASE64 = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA=="

# Open subscriptions/listen streams at once; each holds one of the gate's 64 in-flight slots until its client leaves.
MAX_LISTEN_STREAMS = 16

InputRequest = Union[ElicitRequest, CreateMessageRequest, ListRootsRequest]
Responses = Optional[Mapping[str, Any]]


@dataclass(frozen=True)
class Finish:
    """A round that completes with `result`."""

    result: Union[CallToolResult, GetPromptResult]


@dataclass(frozen=True)
class Ask:
    """A round that asks `requests` and seals `data` (the fixture's progress) into the next state."""

    requests: Dict[str, InputRequest]
    data: Any


Step = Callable[[Any, Responses, Mapping[str, Any]], Union[Finish, Ask]]


def one_question(
    key: str, ask: Callable[[], InputRequest], read: Callable[[Responses, str], Optional[str]], reply: str
) -> Step:
    """A fixture of one round trip: ask `key`, then finish with `reply` filled with the answer read back."""

    def step(data: Any, responses: Responses, params: Mapping[str, Any]) -> Union[Finish, Ask]:
        answer = read(responses, key) if data == "asked" else None
        if answer is not None:
            return Finish(done(reply.format(answer)))
        return Ask({key: ask()}, "asked")

    return step


def _embedded(uri: str, mime_type: str, text: str) -> EmbeddedResource:
    return EmbeddedResource(type="resource", resource=TextResourceContents(uri=uri, mime_type=mime_type, text=text))


def _text(value: str) -> TextContent:
    return TextContent(type="text", text=value)


def done(*lines: str) -> CallToolResult:
    return CallToolResult(content=[_text(line) for line in lines])


def _string_schema(*fields: str) -> dict:
    return {"type": "object", "properties": {f: {"type": "string"} for f in fields}, "required": list(fields)}


def ask_name(message: str) -> ElicitRequest:
    return ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=_string_schema("name")))


def ask_color() -> ElicitRequest:
    return ElicitRequest(
        params=ElicitRequestFormParams(message="Step 2: What is your favorite color?", requested_schema=_string_schema("color"))
    )


def ask_confirm() -> ElicitRequest:
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    return ElicitRequest(params=ElicitRequestFormParams(message="Please confirm", requested_schema=schema))


def ask_sample(prompt: str, max_tokens: int) -> CreateMessageRequest:
    return CreateMessageRequest(
        params=CreateMessageRequestParams(messages=[SamplingMessage(role="user", content=_text(prompt))], max_tokens=max_tokens)
    )


def ask_roots() -> ListRootsRequest:
    return ListRootsRequest()


def _response(responses: Responses, key: str) -> Optional[Mapping[str, Any]]:
    value = responses.get(key) if isinstance(responses, Mapping) else None
    return value if isinstance(value, Mapping) else None


def accepted_content(responses: Responses, key: str) -> Optional[Mapping[str, Any]]:
    """The content of an accepted elicitation answer to `key` ({} when it has none), or None."""
    response = _response(responses, key)
    if response is None or response.get("action") != "accept":
        return None
    content = response.get("content")
    return content if isinstance(content, Mapping) else {}


def accepted_string(responses: Responses, key: str, field: str) -> Optional[str]:
    content = accepted_content(responses, key)
    value = None if content is None else content.get(field)
    return value if isinstance(value, str) else None


def sampled_text(responses: Responses, key: str) -> Optional[str]:
    """The first text block of a sampling answer to `key` (content a block or a list of blocks), or None."""
    response = _response(responses, key)
    if response is None or response.get("role") is None:
        return None
    blocks = response.get("content")
    for block in blocks if isinstance(blocks, list) else [blocks]:
        if isinstance(block, Mapping) and block.get("type") == "text" and isinstance(block.get("text"), str):
            return block["text"]
    return None


def root_uris(responses: Responses, key: str) -> Optional["list[str]"]:
    response = _response(responses, key)
    roots = None if response is None else response.get("roots")
    if not isinstance(roots, list):
        return None
    return [root["uri"] for root in roots if isinstance(root, Mapping) and isinstance(root.get("uri"), str)]


def declared_capabilities(params: Mapping[str, Any]) -> Mapping[str, Any]:
    """This request's own clientCapabilities (never an earlier request's)."""
    meta = params.get("_meta")
    declared = meta.get(CLIENT_CAPABILITIES) if isinstance(meta, Mapping) else None
    return declared if isinstance(declared, Mapping) else {}


def undeclared_capability(params: Mapping[str, Any], requests: Mapping[str, InputRequest]) -> Optional[MCPError]:
    """-32021 when an input request needs a capability this request's clientCapabilities do not declare. The SDK sends
    input requests to any client (docs/findings/python-sdk-2.3.0.md, 5); the specification says MUST NOT, and the Java
    and TypeScript SDKs refuse so themselves."""
    declared = declared_capabilities(params)
    for key in sorted(requests):
        request = requests[key]
        if isinstance(request, ElicitRequest):
            ok, capability, method, required = declares_form_elicitation(params), "form elicitation", "elicitation/create", {"elicitation": {"form": {}}}
        elif isinstance(request, CreateMessageRequest):
            ok, capability, method, required = isinstance(declared.get("sampling"), Mapping), "sampling", "sampling/createMessage", {"sampling": {}}
        else:
            ok, capability, method, required = isinstance(declared.get("roots"), Mapping), "roots", "roots/list", {"roots": {}}
        if not ok:
            return MCPError(
                code=MISSING_CAPABILITY,
                message=f"Cannot request input '{key}' ({method}): the request's client capabilities do not declare {capability}",
                data={"requiredCapabilities": required},
            )
    return None


class ConformanceProfile:
    """The suite's fixtures for one server process: its fixture states, its listen streams, its log."""

    def __init__(self, states: FixtureStates, principal_of: Callable[[ServerRequestContext], str], log: Callable[[str], None]) -> None:
        self.states = states
        self._principal_of = principal_of
        self._log = log
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus, max_subscriptions=MAX_LISTEN_STREAMS)
        self._tools: Dict[str, Callable[[ServerRequestContext, Mapping[str, Any]], Any]] = {}
        self._tool_list: "list[Tool]" = []
        self._register_content_tools()
        self._register_input_required_tools()

    # -- installation -------------------------------------------------------------------------------------------

    def install(self, server: Server) -> None:
        """Adds every fixture to `server` beside what it already serves: its tools/list and tools/call handlers (the
        guarded tools') are wrapped, the prompt, resource, completion and listen handlers added. Cache hints need nothing:
        the SDK's cacheable result models say `ttlMs: 0`, `cacheScope: "private"` unless told otherwise."""
        guarded_list = server.get_request_handler("tools/list")
        guarded_call = server.get_request_handler("tools/call")
        if guarded_list is None or guarded_call is None:
            raise RuntimeError("the profile installs beside the guarded tools, and they are not registered")

        async def list_tools(ctx: ServerRequestContext, params: Optional[PaginatedRequestParams]) -> ListToolsResult:
            guarded = await guarded_list.handler(ctx, params)
            return ListToolsResult(tools=[*guarded.tools, *self._tool_list])

        async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams):
            fixture = self._tools.get(params.name)
            if fixture is None:
                return await guarded_call.handler(ctx, params)
            return await fixture(ctx, ctx.params or {})

        server.add_request_handler("tools/list", PaginatedRequestParams, list_tools)
        server.add_request_handler("tools/call", CallToolRequestParams, call_tool)
        server.add_request_handler("prompts/list", PaginatedRequestParams, self._list_prompts)
        server.add_request_handler("prompts/get", GetPromptRequestParams, self._get_prompt)
        server.add_request_handler("resources/list", PaginatedRequestParams, self._list_resources)
        server.add_request_handler("resources/templates/list", PaginatedRequestParams, self._list_templates)
        server.add_request_handler("resources/read", ReadResourceRequestParams, self._read_resource)
        server.add_request_handler("completion/complete", CompleteRequestParams, self._complete)
        server.add_request_handler("subscriptions/listen", SubscriptionsListenRequestParams, self.listen)

    def close(self) -> None:
        """Ends every open listen stream gracefully (at shutdown)."""
        self.listen.close()

    # -- the sealed rounds ----------------------------------------------------------------------------------------

    async def _round(self, ctx: ServerRequestContext, method: str, name: str, step: Step):
        """One round of a sealed fixture: the state of a continuation opened (a continuation without one refused),
        the step run on the opened progress, and any question asked under a freshly sealed state."""
        params: Mapping[str, Any] = ctx.params or {}
        call = FixtureCall(method, name, params.get("arguments"), self._principal_of(ctx))
        data: Any = None
        responses: Responses = None
        if "requestState" in params:
            # The SDK's boundary has already opened the seal (or refused the request); what it handed over is
            # checked against this very call, and a JSON null (which the boundary passes on as absent) is refused.
            try:
                data = self.states.open(params["requestState"], call)
            except FixtureStateRefused as error:
                self._log(f"{name}: fixture state refused: {error}")
                raise invalid_request_state() from None
            responses = params.get("inputResponses") if isinstance(params.get("inputResponses"), Mapping) else None
        elif "inputResponses" in params:
            # A continuation without its state: every sealed fixture depends on its state, so none completes.
            self._log(f"{name}: fixture state refused: a continuation without requestState")
            raise invalid_request_state()
        outcome = step(data, responses, params)
        if isinstance(outcome, Finish):
            return outcome.result
        refusal = undeclared_capability(params, outcome.requests)
        if refusal is not None:
            raise refusal
        try:
            state = self.states.mint(call, outcome.data)
        except FixtureStateRefused as error:
            # Arguments that cannot be digested cannot be bound; the call is refused rather than left unbound.
            raise MCPError(code=INVALID_PARAMS, message=f"{name}: {error}") from None
        return InputRequiredResult(input_requests=outcome.requests, request_state=state)

    def _tool(self, name: str, description: str, run: Callable[[ServerRequestContext, Mapping[str, Any]], Any]) -> None:
        self._tools[name] = run
        self._tool_list.append(Tool(name=name, description=description, input_schema={"type": "object"}))

    def _sealed(self, name: str, description: str, step: Step) -> None:
        async def run(ctx: ServerRequestContext, params: Mapping[str, Any]):
            return await self._round(ctx, TOOLS_CALL, name, step)

        self._tool(name, description, run)

    # -- the tools ------------------------------------------------------------------------------------------------

    def _register_content_tools(self) -> None:
        def constant(result: CallToolResult) -> Callable[[ServerRequestContext, Mapping[str, Any]], Any]:
            async def run(ctx: ServerRequestContext, params: Mapping[str, Any]) -> CallToolResult:
                return result.model_copy(deep=True)

            return run

        self._tool("test_simple_text", "Returns one text block.", constant(done("This is a simple text response for testing.")))
        self._tool(
            "test_image_content",
            "Returns one PNG image.",
            constant(CallToolResult(content=[ImageContent(type="image", data=PNG_BASE64, mime_type="image/png")])),
        )
        self._tool(
            "test_audio_content",
            "Returns one WAV clip.",
            constant(CallToolResult(content=[AudioContent(type="audio", data=WAV_BASE64, mime_type="audio/wav")])),
        )
        self._tool(
            "test_embedded_resource",
            "Returns an embedded text resource.",
            constant(
                CallToolResult(
                    content=[
                        _embedded("test://embedded-resource", "text/plain", "This is an embedded resource content.")
                    ]
                )
            ),
        )
        self._tool(
            "test_multiple_content_types",
            "Returns text, an image and an embedded resource.",
            constant(
                CallToolResult(
                    content=[
                        _text("Multiple content types test:"),
                        ImageContent(type="image", data=PNG_BASE64, mime_type="image/png"),
                        _embedded("test://mixed-content-resource", "application/json", '{"test":"data","value":123}'),
                    ]
                )
            ),
        )
        self._tool(
            "test_error_handling",
            "Always fails, as a tool error result.",
            constant(CallToolResult(content=[_text("This tool intentionally returns an error for testing")], is_error=True)),
        )

        async def progress(ctx: ServerRequestContext, params: Mapping[str, Any]) -> CallToolResult:
            meta = params.get("_meta")
            token = meta.get("progressToken") if isinstance(meta, Mapping) else None
            for value in (0, 50, 100):
                # The SDK sends nothing when the request carried no progress token.
                await ctx.session.report_progress(value, 100)
                if value < 100:
                    await anyio.sleep(0.05)
            return done("Progress tool finished." if token is not None else "Progress tool finished (no progress token).")

        self._tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100 when given a progress token.", progress)

        async def logging_tool(ctx: ServerRequestContext, params: Mapping[str, Any]) -> CallToolResult:
            with warnings.catch_warnings():
                # The SDK marks its logging API deprecated as of 2026-07-28 (SEP-2577) but still delivers a log entry
                # to a request that opted in with its _meta log level, which is what this fixture shows.
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await ctx.session.send_log_message("info", "test_logging_tool ran")
            return done("Logging tool finished.")

        self._tool(
            "test_logging_tool", "Logs at info level; the SDK sends nothing unless the request asked for a log level.", logging_tool
        )

        async def tool_change(ctx: ServerRequestContext, params: Mapping[str, Any]) -> CallToolResult:
            await self.bus.publish(ToolsListChanged())
            return done("Tool list change announced.")

        async def prompt_change(ctx: ServerRequestContext, params: Mapping[str, Any]) -> CallToolResult:
            await self.bus.publish(PromptsListChanged())
            return done("Prompt list change announced.")

        self._tool("test_trigger_tool_change", "Announces a tool list change to open subscriptions.", tool_change)
        self._tool("test_trigger_prompt_change", "Announces a prompt list change to open subscriptions.", prompt_change)

    def _register_input_required_tools(self) -> None:
        async def elicitation(ctx: ServerRequestContext, params: Mapping[str, Any]):
            if "requestState" in params:
                self._log(f"{ELICITATION}: fixture state refused: it issues none, so none can be its own")
                raise invalid_request_state()
            name = accepted_string(params.get("inputResponses"), "user_name", "name")
            if name is not None:
                return done(f"Hello, {name}!")
            # No answer to user_name (none, another key, not an accepted form): ask again, as SEP-2322 recommends.
            requests = {"user_name": ask_name("What is your name?")}
            refusal = undeclared_capability(params, requests)
            if refusal is not None:
                raise refusal
            return InputRequiredResult(input_requests=requests)

        self._tool(ELICITATION, "Asks for a name (user_name) and greets it; issues no requestState.", elicitation)

        sampling = one_question(
            "capital_question", lambda: ask_sample("What is the capital of France?", 100), sampled_text, "Sampling response: {}"
        )
        self._sealed(SAMPLING, "Asks the client to sample an answer (capital_question).", sampling)

        def list_roots(data: Any, responses: Responses, params: Mapping[str, Any]):
            roots = root_uris(responses, "client_roots") if data == "asked" else None
            if roots is not None:
                return Finish(done(f"Client roots: {', '.join(roots) if roots else '(none)'}"))
            return Ask({"client_roots": ask_roots()}, "asked")

        self._sealed(LIST_ROOTS, "Asks for the client's roots (client_roots).", list_roots)

        def request_state(data: Any, responses: Responses, params: Mapping[str, Any]):
            answer = accepted_content(responses, "confirm") if data == "asked" else None
            if answer is not None:
                ok = _json_text(answer["ok"]) if "ok" in answer else "undefined"
                return Finish(done(f"state-ok: the requestState verified; ok={ok}"))
            return Ask({"confirm": ask_confirm()}, "asked")

        self._sealed(
            REQUEST_STATE, "Asks for a confirmation (confirm) and says state-ok once its sealed state came back.", request_state
        )

        def multiple_inputs(data: Any, responses: Responses, params: Mapping[str, Any]):
            if data == "asked":
                name = accepted_string(responses, "user_name", "name")
                greeting = sampled_text(responses, "greeting")
                roots = root_uris(responses, "client_roots")
                if name is not None and greeting is not None and roots is not None:
                    return Finish(done(f"name={name}; greeting={greeting}; roots={', '.join(roots)}"))
            return Ask(
                {
                    "user_name": ask_name("What is your name?"),
                    "greeting": ask_sample("Generate a greeting", 50),
                    "client_roots": ask_roots(),
                },
                "asked",
            )

        self._sealed(MULTIPLE_INPUTS, "Asks for a name, a sampled greeting and the roots in one round.", multiple_inputs)

        def multi_round(data: Any, responses: Responses, params: Mapping[str, Any]):
            if isinstance(data, dict) and isinstance(data.get("name"), str):
                color = accepted_string(responses, "step2", "color")
                if color is not None:
                    return Finish(done(f"{data['name']} likes {color}."))
                return Ask({"step2": ask_color()}, {"name": data["name"]})
            name = accepted_string(responses, "step1", "name") if data == "step1" else None
            if name is not None:
                return Ask({"step2": ask_color()}, {"name": name})
            return Ask({"step1": ask_name("Step 1: What is your name?")}, "step1")

        self._sealed(
            MULTI_ROUND, "Asks for a name (step1), then a colour (step2), each round with a new sealed state.", multi_round
        )

        def tampered_state(data: Any, responses: Responses, params: Mapping[str, Any]):
            if data == "asked" and accepted_content(responses, "confirm") is not None:
                return Finish(done("The requestState verified."))
            return Ask({"confirm": ask_confirm()}, "asked")

        self._sealed(
            TAMPERED_STATE, "Asks for a confirmation; a continuation whose state fails verification is refused.", tampered_state
        )

        def capabilities(data: Any, responses: Responses, params: Mapping[str, Any]):
            if data == "asked" and responses is not None:
                return Finish(done(f"Answered: {', '.join(sorted(responses)) or '(nothing)'}"))
            declared = declared_capabilities(params)
            requests: Dict[str, InputRequest] = {}
            if "elicitation" in declared:
                requests["user_name"] = ask_name("What is your name?")
            if "sampling" in declared:
                requests["greeting"] = ask_sample("Generate a greeting", 50)
            if "roots" in declared:
                requests["client_roots"] = ask_roots()
            if not requests:
                return Finish(done("The client declared none of elicitation, sampling and roots; nothing to ask."))
            return Ask(requests, "asked")

        self._sealed(CAPABILITIES, "Asks only for what the request's client capabilities declare.", capabilities)

        # Needs sampling whatever the client declared, so a client without it gets -32021.
        missing_capability = one_question("sample", lambda: ask_sample("Say something", 20), sampled_text, "Sampled: {}")
        self._sealed(MISSING_CAPABILITY_TOOL, "Always asks for sampling.", missing_capability)

        streaming_elicitation = one_question(
            "user_name",
            lambda: ask_name("What is your name?"),
            lambda responses, key: accepted_string(responses, key, "name"),
            "Hello, {}!",
        )

        self._sealed(
            STREAMING_ELICITATION, "Asks for a name by input_required, never by a request of its own.", streaming_elicitation
        )

    # -- prompts --------------------------------------------------------------------------------------------------

    async def _list_prompts(self, ctx: ServerRequestContext, params: Optional[PaginatedRequestParams]) -> ListPromptsResult:
        return ListPromptsResult(
            prompts=[
                Prompt(name="test_simple_prompt", description="A prompt without arguments."),
                Prompt(
                    name=ARGUMENTS_PROMPT,
                    description="A prompt with two required arguments.",
                    arguments=[
                        PromptArgument(name="arg1", description="First test argument", required=True),
                        PromptArgument(name="arg2", description="Second test argument", required=True),
                    ],
                ),
                Prompt(
                    name="test_prompt_with_embedded_resource",
                    description="A prompt that embeds the resource it is given.",
                    arguments=[PromptArgument(name="resourceUri", description="URI of the resource to embed", required=True)],
                ),
                Prompt(name="test_prompt_with_image", description="A prompt with an image."),
                Prompt(name=MRTR_PROMPT, description="Asks for the context (user_context) before it returns its messages."),
            ]
        )

    async def _get_prompt(self, ctx: ServerRequestContext, params: GetPromptRequestParams):
        arguments = params.arguments or {}

        def argument(name: str) -> str:
            value = arguments.get(name)
            if not isinstance(value, str):
                raise MCPError(code=INVALID_PARAMS, message=f"Missing required argument: {name}")
            return value

        def user(content: Any) -> PromptMessage:
            return PromptMessage(role="user", content=content)

        if params.name == "test_simple_prompt":
            return GetPromptResult(messages=[user(_text("This is a simple prompt for testing."))])
        if params.name == ARGUMENTS_PROMPT:
            arg1, arg2 = argument("arg1"), argument("arg2")
            return GetPromptResult(messages=[user(_text(f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"))])
        if params.name == "test_prompt_with_embedded_resource":
            uri = argument("resourceUri")
            resource = TextResourceContents(uri=uri, mime_type="text/plain", text="Embedded resource content for testing.")
            return GetPromptResult(
                messages=[
                    user(EmbeddedResource(type="resource", resource=resource)),
                    user(_text("Please process the embedded resource above.")),
                ]
            )
        if params.name == "test_prompt_with_image":
            return GetPromptResult(
                messages=[
                    user(ImageContent(type="image", data=PNG_BASE64, mime_type="image/png")),
                    user(_text("Please analyze the image above.")),
                ]
            )
        if params.name == MRTR_PROMPT:

            def step(data: Any, responses: Responses, raw: Mapping[str, Any]):
                context = accepted_string(responses, "user_context", "context") if data == "asked" else None
                if context is not None:
                    return Finish(GetPromptResult(messages=[user(_text(f"Use this context: {context}"))]))
                question = ElicitRequest(
                    params=ElicitRequestFormParams(
                        message="What context should the prompt use?", requested_schema=_string_schema("context")
                    )
                )
                return Ask({"user_context": question}, "asked")

            return await self._round(ctx, PROMPTS_GET, MRTR_PROMPT, step)
        raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {params.name}")

    # -- resources and completion ---------------------------------------------------------------------------------

    async def _list_resources(self, ctx: ServerRequestContext, params: Optional[PaginatedRequestParams]) -> ListResourcesResult:
        return ListResourcesResult(
            resources=[
                Resource(name="static-text", uri="test://static-text", description="A fixed text resource.", mime_type="text/plain"),
                Resource(name="static-binary", uri="test://static-binary", description="A fixed PNG resource.", mime_type="image/png"),
            ]
        )

    async def _list_templates(
        self, ctx: ServerRequestContext, params: Optional[PaginatedRequestParams]
    ) -> ListResourceTemplatesResult:
        return ListResourceTemplatesResult(
            resource_templates=[
                ResourceTemplate(
                    name="template-data",
                    uri_template="test://template/{id}/data",
                    description="JSON data for any id.",
                    mime_type="application/json",
                )
            ]
        )

    async def _read_resource(self, ctx: ServerRequestContext, params: ReadResourceRequestParams) -> ReadResourceResult:
        raw = (ctx.params or {}).get("uri")
        uri = raw if isinstance(raw, str) else str(params.uri)
        if uri == "test://static-text":
            contents: Any = TextResourceContents(uri=uri, mime_type="text/plain", text="This is the content of the static text resource.")
        elif uri == "test://static-binary":
            contents = BlobResourceContents(uri=uri, mime_type="image/png", blob=PNG_BASE64)
        else:
            match = _TEMPLATE_ID.match(uri)
            if match is None:
                # SEP-2164: an unknown URI is -32602 with the URI in data, never an empty contents array.
                raise MCPError(code=INVALID_PARAMS, message="Resource not found", data={"uri": uri})
            identifier = match.group(1)
            text = _json_text({"id": identifier, "templateTest": True, "data": f"Data for ID: {identifier}"})
            contents = TextResourceContents(uri=uri, mime_type="application/json", text=text)
        return ReadResourceResult(contents=[contents])

    async def _complete(self, ctx: ServerRequestContext, params: CompleteRequestParams) -> CompleteResult:
        ref = params.ref
        candidates: "tuple[str, ...]" = ()
        if getattr(ref, "type", None) == "ref/prompt" and getattr(ref, "name", None) == ARGUMENTS_PROMPT:
            candidates = _COMPLETIONS.get(params.argument.name, ())
        values = [value for value in candidates if value.startswith(params.argument.value)]
        return CompleteResult(completion=Completion(values=values, total=len(values), has_more=False))


_TEMPLATE_ID = re.compile(r"^test://template/([^/]+)/data$")
_COMPLETIONS: "dict[str, tuple[str, ...]]" = {
    "arg1": ("paris", "park", "party", "test", "testing"),
    "arg2": ("world", "wonder", "work"),
}


def _json_text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
