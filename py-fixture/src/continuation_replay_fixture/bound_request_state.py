"""The fixture's own requestState binding, carried inside the SDK's sealed envelope.

The SDK's RequestStateBoundary (mcp.server.request_state) seals whatever string a handler returns as requestState
into an AES-256-GCM token whose claims bind the method, the tool name, a digest of the call's arguments, an audience,
a salted principal tag and an expiry, and on the way in hands the handler only a string it sealed itself. The fixture
does not rely on those claims alone: the string it has sealed is a payload of its own that binds

  method, tool, arguments_digest (the lab's digest of canonical {operation_id, title, mode}, mode defaulted),
  principal, expires_at (the injected clock plus WIRE_REQUEST_STATE_TTL),

around the application continuation state (seed spec section 3) that the bridge hands to the shared guard. The handler
checks every binding again (check_payload) before any bridge call; a failure is the SDK's own frozen refusal,
-32602 "Invalid or expired requestState" with data.reason = "invalid_request_state".
"""

import json
import secrets
from dataclasses import dataclass
from typing import Any, Callable

from .guarded_arguments import GuardedArguments, arguments_digest

GUARDED_TOOL = "create_guarded_issue"
TOOLS_CALL = "tools/call"
PAYLOAD_VERSION = 1


class StateBindingError(ValueError):
    """The payload does not bind this request; the reason goes to stderr only, never to the wire."""


@dataclass(frozen=True)
class MintTimes:
    now: int
    authority_ttl: int
    replay_retention_ttl: int
    request_state_ttl: int


def mint_payload(args: GuardedArguments, principal: str, times: MintTimes) -> dict:
    """A fresh payload for a first round: a new 16-byte nonce each time, so two first rounds are two operations.
    The state's members are in the TypeScript fixture's minting order."""
    return {
        "v": PAYLOAD_VERSION,
        "method": TOOLS_CALL,
        "tool": GUARDED_TOOL,
        "arguments_digest": arguments_digest(args.as_dict()),
        "principal": principal,
        "expires_at": times.now + times.request_state_ttl,
        "state": {
            "v": 1,
            "operation_id": args.operation_id,
            "nonce": secrets.token_hex(16),
            "issued_at": times.now,
            "authority_expires_at": times.now + times.authority_ttl,
            "replay_expires_at": times.now + times.replay_retention_ttl,
        },
    }


def payload_text(payload: dict) -> str:
    """The string the handler returns as requestState (the SDK seals it): compact JSON, ASCII only."""
    return json.dumps(payload, separators=(",", ":"))


def check_payload(
    text: Any,
    *,
    method: str,
    tool: Any,
    arguments: Any,
    principal: str,
    now: int,
    digest_of: Callable[[Any], str] = arguments_digest,
) -> dict:
    """The payload if it binds this request (method, tool, arguments, principal) and has not expired at `now`.
    `digest_of` is the tool's argument digest (the unguarded control binds its title alone)."""
    if not isinstance(text, str):
        raise StateBindingError("not a string")
    try:
        payload = json.loads(text)
    except ValueError:
        raise StateBindingError("not a payload of this fixture") from None
    if (
        not isinstance(payload, dict)
        or payload.get("v") != PAYLOAD_VERSION
        or not isinstance(payload.get("state"), dict)
        or not isinstance(payload.get("expires_at"), int)
        or isinstance(payload.get("expires_at"), bool)
    ):
        raise StateBindingError("not a payload of this fixture")
    if payload.get("method") != method:
        raise StateBindingError("minted for another method")
    if payload.get("tool") != tool:
        raise StateBindingError("minted for another tool")
    try:
        digest = digest_of(arguments)
    except (TypeError, ValueError):
        raise StateBindingError("arguments cannot be digested") from None
    if payload.get("arguments_digest") != digest:
        raise StateBindingError("minted for other arguments")
    if payload.get("principal") != principal:
        raise StateBindingError("minted for another principal")
    # Expired from expires_at on, as the SDK's own claim (now < exp is valid).
    if not now < payload["expires_at"]:
        raise StateBindingError("expired")
    return payload
