"""Turns one parsed input line into a LogicalRequest, optionally named: the member rules and messages of Java's
LogicalRequestReader and ts-fixture/src/logical-request.ts."""

import re
from dataclasses import dataclass
from typing import Any

from .canonical_json import require_scalar_values
from .fingerprint import LogicalRequest
from .unicode_text import path_segment

MEMBERS = frozenset(("principal", "tool_id", "tool_version", "arguments", "continuation_state", "input_responses"))
_CONTROL = re.compile("[\u0000-\u001f\u007f]")


class RequestShapeError(ValueError):
    pass


@dataclass(frozen=True)
class NamedRequest:
    name: "str | None"
    request: LogicalRequest


def read_named_request(value: Any) -> NamedRequest:
    name = read_name(value)
    return NamedRequest(name, read_logical_request(value if name is None else value["request"]))


def read_name(value: Any) -> "str | None":
    """The name of a named entry, None for a plain request; checks the envelope, not the request inside."""
    if not isinstance(value, dict):
        raise RequestShapeError("a line must hold a JSON object")
    if "request" not in value:
        return None
    if len(value) != 2 or "name" not in value:
        raise RequestShapeError('a named entry must have exactly the members "name" and "request"')
    name = value["name"]
    if not isinstance(name, str) or _CONTROL.search(name) is not None:
        raise RequestShapeError("$.name: must be a string without control characters")
    require_scalar_values(name, "$.name")
    return name


def read_logical_request(value: Any) -> LogicalRequest:
    if not isinstance(value, dict):
        raise RequestShapeError("a LogicalRequest must be a JSON object")
    for key in sorted(value):
        if key not in MEMBERS:
            raise RequestShapeError(f"${path_segment(key)}: unknown LogicalRequest member")
    principal = _required(value, "principal")
    if principal is not None and not isinstance(principal, str):
        raise RequestShapeError("$.principal: must be a string or null")
    tool_id = _required_string(value, "tool_id")
    tool_version = _required_string(value, "tool_version")
    arguments = _required(value, "arguments")
    if not isinstance(arguments, dict):
        raise RequestShapeError("$.arguments: must be a JSON object")
    return LogicalRequest(
        principal=principal,
        tool_id=tool_id,
        tool_version=tool_version,
        arguments=arguments,
        continuation_state=value.get("continuation_state"),
        input_responses=value.get("input_responses"),
    )


def _required(value: dict, member: str) -> Any:
    if member not in value:
        raise RequestShapeError(f"$.{member}: required")
    return value[member]


def _required_string(value: dict, member: str) -> str:
    found = _required(value, member)
    if not isinstance(found, str):
        raise RequestShapeError(f"$.{member}: must be a string")
    return found
