"""The two tools of the guarded fixture on the low-level Python Server: create_guarded_issue, a two-round MRTR call
whose continuation applies once through the bridge, and get_operation_status, the authoritative read-back.

Tool results follow the TypeScript fixture: a refusal is a tool result with isError true whose single text is the wire
code (operation_conflict, ...) or the guard's message; a requestState that does not bind the request is the SDK's
JSON-RPC error. The low-level Server validates no input schema, so the handlers read the raw arguments themselves.
"""

import functools
import json
import os
import sys
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Mapping, Optional, Protocol

from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    InputRequiredResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
)

from .bound_request_state import (
    GUARDED_TOOL,
    TOOLS_CALL,
    MintTimes,
    StateBindingError,
    check_payload,
    mint_payload,
    payload_text,
)
from .bridge_client import BridgeAnswer, BridgeMachineryFailure, BridgeOk, bridge_error_text
from .guarded_arguments import InvalidArguments, guarded_arguments_of
from .input_responses import InvalidInputResponses, accepted_body, normalised_responses
from .tool_table import shipped_table, tool_declarations
from .trusted_environment import FixtureConfig, LedgerConfig

STATUS_TOOL = "get_operation_status"
DROP_AFTER_COMMIT_EXIT = 70
INVALID_REQUEST_STATE = "Invalid or expired requestState"


class BridgeCaller(Protocol):
    def call(self, request: dict) -> Awaitable[BridgeAnswer]: ...


@dataclass
class GuardedToolsContext:
    config: FixtureConfig
    bridge: BridgeCaller
    exit: Callable[[int], None] = os._exit
    log: Callable[[str], None] = lambda message: (sys.stderr.write(message + "\n"), sys.stderr.flush())
    # HTTP mode only: closes this request's connection without a response (close-after-commit).
    close_connection: Optional[Callable[[], None]] = None


def invalid_request_state() -> MCPError:
    """The SDK boundary's frozen refusal, word for word."""
    return MCPError(code=INVALID_PARAMS, message=INVALID_REQUEST_STATE, data={"reason": "invalid_request_state"})


MISSING_CAPABILITY = -32021


def missing_elicitation() -> MCPError:
    """-32021 before round one: the request's own client capabilities do not declare form elicitation. The SDK sends
    input requests to any client (docs/findings/python-sdk-2.3.0.md), where the specification says it MUST NOT."""
    return MCPError(
        code=MISSING_CAPABILITY,
        message="Cannot request input 'body' (elicitation/create): the request's client capabilities do not declare form elicitation",
        data={"requiredCapabilities": {"elicitation": {"form": {}}}},
    )


def declares_form_elicitation(params: Mapping[str, Any]) -> bool:
    """This request's clientCapabilities (never an earlier request's): elicitation either empty (form only) or with
    form."""
    meta = params.get("_meta")
    capabilities = meta.get("io.modelcontextprotocol/clientCapabilities") if isinstance(meta, dict) else None
    elicitation = capabilities.get("elicitation") if isinstance(capabilities, dict) else None
    if not isinstance(elicitation, dict):
        return False
    return len(elicitation) == 0 or isinstance(elicitation.get("form"), dict)


def complete(result: dict) -> CallToolResult:
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result)


def tool_error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


@functools.lru_cache(maxsize=1)
def shipped_tool_table() -> Any:
    """vectors/rules/tools.json, read once; server.py reads it before serving, so a table this fixture cannot serve
    is refused at start (ToolTableError), like a bad configuration."""
    table = shipped_table()
    tool_declarations(table, "guarded", (GUARDED_TOOL, STATUS_TOOL))
    return table


def tool_list(table: Any = None) -> ListToolsResult:
    """The guarded tools as the shared table declares them (the shipped one unless a test gives another), in its
    order."""
    declared = tool_declarations(shipped_tool_table() if table is None else table, "guarded", (GUARDED_TOOL, STATUS_TOOL))
    return ListToolsResult(
        tools=[
            Tool(
                name=tool["name"],
                description=tool["description"],
                input_schema=tool["inputSchema"],
                output_schema=tool.get("outputSchema"),
            )
            for tool in declared
        ]
    )


async def call_tool(context: GuardedToolsContext, method: str, params: Mapping[str, Any]) -> "CallToolResult | InputRequiredResult":
    """`params` are the request's params as sent, except requestState, which the SDK's boundary has replaced by the
    plaintext it sealed (or refused the request before this runs)."""
    name = params.get("name")
    arguments = params.get("arguments")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return tool_error("arguments must be an object")
    if name == GUARDED_TOOL:
        return await create_guarded_issue(context, method, arguments, params)
    if name == STATUS_TOOL:
        operation_id = arguments.get("operation_id")
        if not isinstance(operation_id, str) or operation_id == "":
            return tool_error("operation_id is required")
        called = await _call_bridge(context.bridge, {"op": "status", "operation_id": operation_id})
        return complete(called.result) if isinstance(called, BridgeOk) else called
    raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name}")


async def create_guarded_issue(
    context: GuardedToolsContext, method: str, arguments: dict, params: Mapping[str, Any]
) -> "CallToolResult | InputRequiredResult":
    config = context.config
    try:
        args = guarded_arguments_of(arguments)
    except InvalidArguments as error:
        return tool_error(str(error))
    responses = params.get("inputResponses")
    state_text = params.get("requestState")
    if responses is None:
        if state_text is not None:
            return tool_error("requestState without input responses")
        if not declares_form_elicitation(params):
            raise missing_elicitation()
        times = MintTimes(config.clock_epoch, config.authority_ttl, config.replay_retention_ttl, config.request_state_ttl)
        payload = mint_payload(args, config.principal, times)
        return body_request(args.title, payload_text(payload))
    opened = open_continuation(context, method, params, arguments)
    if isinstance(opened, CallToolResult):
        return opened
    payload, body = opened
    called = await _call_bridge(
        context.bridge,
        {
            "op": "apply",
            "operation_id": args.operation_id,
            "title": args.title,
            "mode": args.mode,
            "body": body,
            "state": payload["state"],
            "responses": normalised_responses(body),
        },
    )
    if not isinstance(called, BridgeOk):
        return called
    if config.fault == "drop-after-commit" and called.result.get("replayed") is False:
        context.log("drop-after-commit: the effect is committed; exiting before the reply")
        context.exit(DROP_AFTER_COMMIT_EXIT)
    if config.fault == "close-after-commit" and called.result.get("replayed") is False and context.close_connection:
        # The reply is lost with its connection; the process keeps serving (the lab's h1 case).
        context.log("close-after-commit: the effect is committed; closing the connection before the reply")
        context.close_connection()
    return complete(called.result)


def open_continuation(
    context: GuardedToolsContext, method: str, params: Mapping[str, Any], arguments: dict, **binding: Any
) -> "tuple[dict, str] | CallToolResult":
    """A continuation's sealed payload and accepted body, or the tool error for a missing state or a body not
    accepted; a state that does not bind this request (`binding`: check_payload's digest_of, for the control) raises
    the SDK's frozen refusal. The guarded tool and the unguarded control open their continuations alike."""
    state_text = params.get("requestState")
    if state_text is None:
        return tool_error("unsupported continuation: input responses require requestState")
    try:
        payload = check_payload(
            state_text,
            method=method,
            tool=params.get("name"),
            arguments=arguments,
            principal=context.config.principal,
            now=context.config.clock_epoch,
            **binding,
        )
    except StateBindingError as error:
        context.log(f"requestState refused by the fixture's own binding: {error}")
        raise invalid_request_state() from None
    try:
        body = accepted_body(params.get("inputResponses"))
    except InvalidInputResponses as error:
        return tool_error(str(error))
    return payload, body


def body_request(title: str, request_state: str) -> InputRequiredResult:
    """Round one's answer, for the guarded tool and the control alike: input_required, asking for the body by a form,
    with the state the SDK's boundary seals."""
    return InputRequiredResult(
        input_requests={
            "body": ElicitRequest(
                params=ElicitRequestFormParams(
                    message=f"Body for {title}?",
                    requested_schema={"type": "object", "properties": {"body": {"type": "string"}}, "required": ["body"]},
                )
            )
        },
        request_state=request_state,
    )


async def _call_bridge(bridge: BridgeCaller, request: dict) -> "BridgeOk | CallToolResult":
    """One bridge call; a machinery failure or a bridge refusal becomes the isError result the client sees."""
    try:
        answer = await bridge.call(request)
    except BridgeMachineryFailure as failure:
        return tool_error(str(failure))
    if isinstance(answer, BridgeOk):
        return answer
    return tool_error(bridge_error_text(answer.error, answer.detail))


def guarded_server(
    name: str,
    version: str,
    config: LedgerConfig,
    context_of: Callable[[ServerRequestContext], GuardedToolsContext],
    bind_principal: Callable[[ServerRequestContext], str],
    tools: "Callable[[], ListToolsResult]" = tool_list,
    call: "Callable[[GuardedToolsContext, str, Mapping[str, Any]], Awaitable[CallToolResult | InputRequiredResult]]" = call_tool,
) -> Server:
    """The low-level Server with the two tools, each call run in `context_of` its request, and the SDK's requestState
    boundary under the lab's state key, binding the principal `bind_principal` names (stdio's one, HTTP's per
    request). `tools` and `call` serve another tool set under the same boundary (the unguarded control's)."""

    async def on_list_tools(ctx: ServerRequestContext, params: "PaginatedRequestParams | None"):
        return tools()

    async def on_call_tool(ctx: ServerRequestContext, params: CallToolRequestParams):
        # The raw params (as sent, requestState already unsealed by the boundary), not the validated model: the
        # handler must see the members exactly as the client sent them.
        return await call(context_of(ctx), ctx.method, ctx.params or {})

    server = Server(name, version=version, on_list_tools=on_list_tools, on_call_tool=on_call_tool)
    security = RequestStateSecurity(keys=[config.state_key], ttl=config.request_state_ttl, bind_principal=bind_principal)
    server.middleware.append(RequestStateBoundary(security, default_audience=name))
    return server
