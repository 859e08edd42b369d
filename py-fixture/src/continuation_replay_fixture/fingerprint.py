"""The keyed request fingerprint (seed spec sections 2.4-2.5; docs/fingerprint.md), byte-identical to
lab.continuationreplay.vectors.RequestFingerprint and ts-fixture/src/fingerprint.ts.

fingerprint = hex(SHA-256(canonical({arguments, continuation_state: <bound>, input_responses: <bound>, principal,
tool_id, tool_version}))), where an opaque field binds as hex(HMAC-SHA256(key, field || 0x00 || canonical(value))) and a
missing one binds as null.
"""

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from .canonical_json import CanonicalJsonError, canonical_utf8_at, require_scalar_values, string_literal

MIN_KEY_BYTES = 32
SHORT_KEY = f"fingerprint key must contain at least {MIN_KEY_BYTES} bytes"
CONTINUATION_STATE = "continuation_state"
INPUT_RESPONSES = "input_responses"
OPAQUE_FIELDS = (CONTINUATION_STATE, INPUT_RESPONSES)


class FingerprintKey:
    """A secret HMAC key of at least 32 bytes; never printed."""

    __slots__ = ("_key",)

    def __init__(self, key: bytes) -> None:
        if len(key) < MIN_KEY_BYTES:
            raise ValueError(SHORT_KEY)
        self._key = bytes(key)

    def hmac_hex(self, message: bytes) -> str:
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()

    def __repr__(self) -> str:
        return "FingerprintKey[redacted]"

    __str__ = __repr__


@dataclass(frozen=True)
class LogicalRequest:
    principal: "str | None"
    tool_id: str
    tool_version: str
    arguments: dict
    continuation_state: Any = None
    input_responses: Any = None


def bind_opaque_field(key: FingerprintKey, name: str, value: Any) -> str:
    """HMAC-SHA256(key, name || 0x00 || canonical(value)) as lowercase hex."""
    canonical = canonical_utf8_at(value, "$." + name, 0)
    return key.hmac_hex(name.encode("utf-8") + b"\x00" + canonical)


def request_fingerprint(key: FingerprintKey, request: LogicalRequest) -> str:
    if not isinstance(request.tool_id, str):
        raise CanonicalJsonError("$.tool_id: must be a string")
    if not isinstance(request.tool_version, str):
        raise CanonicalJsonError("$.tool_version: must be a string")
    if request.principal is not None and not isinstance(request.principal, str):
        raise CanonicalJsonError("$.principal: must be a string or null")
    if not isinstance(request.arguments, dict):
        raise CanonicalJsonError("$.arguments: must be a JSON object")
    # The opaque fields bind first, so every language reports the same error when several parts are invalid.
    bound_state = bind_opaque_field(key, CONTINUATION_STATE, request.continuation_state)
    bound_responses = bind_opaque_field(key, INPUT_RESPONSES, request.input_responses)
    # The payload's members are fixed, so it is written in its canonical key order directly; the checks and their
    # order are those of canonicalising the payload object (arguments one level down, then principal, tool_id,
    # tool_version; the bound fields are hex).
    arguments_utf8 = canonical_utf8_at(request.arguments, "$.arguments", 1)
    principal_text = "null"
    if request.principal is not None:
        require_scalar_values(request.principal, "$.principal")
        principal_text = string_literal(request.principal)
    require_scalar_values(request.tool_id, "$.tool_id")
    require_scalar_values(request.tool_version, "$.tool_version")
    rest = (
        f',"continuation_state":"{bound_state}","input_responses":"{bound_responses}","principal":{principal_text},'
        f'"tool_id":{string_literal(request.tool_id)},"tool_version":{string_literal(request.tool_version)}}}'
    )
    # hashed in parts: the arguments, the largest part, are neither copied into one text nor encoded twice
    digest = hashlib.sha256(b'{"arguments":')
    digest.update(arguments_utf8)
    digest.update(rest.encode("utf-8"))
    return digest.hexdigest()
