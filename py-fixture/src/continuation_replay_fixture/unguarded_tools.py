"""The unguarded control (`--unguarded`): the same low-level Server, the same two rounds, the same sealed and bound
requestState and the same bridge as the guarded fixture, but the continuation writes through the bridge's `create`
op, which adds an issue on every call and keeps no operation row. `lab bench` sets the guarded fixture beside it, so
the ratio is the guard's cost alone. The matrix's controls stay the Java server's.
"""

import hashlib
import secrets
from typing import Any, Callable, Mapping

from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    CallToolResult,
    InputRequiredResult,
    ListToolsResult,
    Tool,
)

from .bound_request_state import PAYLOAD_VERSION, TOOLS_CALL, payload_text
from .bridge_client import BridgeOk
from .canonical_json import canonical_json
from .guarded_arguments import MAX_TEXT_LENGTH
from .guarded_tools import (
    GuardedToolsContext,
    _call_bridge,
    body_request,
    complete,
    declares_form_elicitation,
    guarded_server,
    missing_elicitation,
    open_continuation,
    tool_error,
)
from .input_responses import normalised_responses
from .tool_table import shipped_table, tool_declarations
from .trusted_environment import LedgerConfig
from .unicode_text import utf16_length

UNGUARDED_TOOL = "create_issue"


def title_digest(arguments: Any) -> str:
    """Lowercase hex SHA-256 of canonical_json({title}): the control's only argument, bound as the guarded tool binds
    its three."""
    if not isinstance(arguments, dict):
        raise TypeError("tool arguments must be an object")
    if "title" not in arguments:
        raise TypeError("title is missing")
    return hashlib.sha256(canonical_json({"title": arguments["title"]}).encode("utf-8")).hexdigest()


def unguarded_tool_list(table: Any = None) -> ListToolsResult:
    """The control's tool as the shared table declares it (vectors/rules/tools.json, "unguarded")."""
    (tool,) = tool_declarations(shipped_table() if table is None else table, "unguarded", (UNGUARDED_TOOL,))
    return ListToolsResult(
        tools=[Tool(name=tool["name"], description=tool["description"], input_schema=tool["inputSchema"])]
    )


async def call_unguarded_tool(
    context: GuardedToolsContext, method: str, params: Mapping[str, Any]
) -> "CallToolResult | InputRequiredResult":
    name = params.get("name")
    if name != UNGUARDED_TOOL:
        raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name}")
    arguments = params.get("arguments")
    if not isinstance(arguments, dict):
        return tool_error("arguments must be an object")
    title = arguments.get("title")
    if not isinstance(title, str) or title == "":
        return tool_error("title is required")
    if utf16_length(title) > MAX_TEXT_LENGTH:
        return tool_error(f"title is longer than {MAX_TEXT_LENGTH} characters")
    config = context.config
    responses = params.get("inputResponses")
    state_text = params.get("requestState")
    if responses is None:
        if state_text is not None:
            return tool_error("requestState without input responses")
        if not declares_form_elicitation(params):
            raise missing_elicitation()
        payload = {
            "v": PAYLOAD_VERSION,
            "method": TOOLS_CALL,
            "tool": UNGUARDED_TOOL,
            "arguments_digest": title_digest(arguments),
            "principal": config.principal,
            "expires_at": config.clock_epoch + config.request_state_ttl,
            "state": {"v": 1, "nonce": secrets.token_hex(16)},
        }
        return body_request(title, payload_text(payload))
    opened = open_continuation(context, method, params, arguments, digest_of=title_digest)
    if isinstance(opened, CallToolResult):
        return opened
    _, body = opened
    called = await _call_bridge(
        context.bridge, {"op": "create", "title": title, "body": body, "responses": normalised_responses(body)}
    )
    return complete(called.result) if isinstance(called, BridgeOk) else called


def unguarded_server(
    name: str,
    version: str,
    config: LedgerConfig,
    context_of: Callable[[ServerRequestContext], GuardedToolsContext],
    bind_principal: Callable[[ServerRequestContext], str],
) -> Server:
    """The guarded server's boundary under the same key, serving the control's one tool."""
    return guarded_server(
        name, version, config, context_of, bind_principal, tools=unguarded_tool_list, call=call_unguarded_tool
    )
