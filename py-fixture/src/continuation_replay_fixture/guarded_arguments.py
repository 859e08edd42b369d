"""The arguments of create_guarded_issue as the fixture reads them before any bridge call, with the messages of Java's
GuardedIssueArguments (the bridge checks them again through that class), and the digest that binds them into the
sealed requestState. Lengths count UTF-16 code units, as in Java and TypeScript."""

import hashlib
from dataclasses import dataclass
from typing import Any

from .canonical_json import canonical_json
from .unicode_text import utf16_length

MAX_OPERATION_ID_LENGTH = 256
MAX_TEXT_LENGTH = 65_536
MODES = ("atomic", "partial")
ABSENT: Any = object()
"""An argument the call did not send at all (None is a JSON null, which is sent)."""


class InvalidArguments(ValueError):
    pass


@dataclass(frozen=True)
class GuardedArguments:
    operation_id: str
    title: str
    mode: str

    def as_dict(self) -> dict:
        return {"operation_id": self.operation_id, "title": self.title, "mode": self.mode}


def guarded_arguments(operation_id: Any, title: Any, mode: Any = ABSENT) -> GuardedArguments:
    """Validates the raw values; an absent mode is atomic, a null one is refused (as in TypeScript: the low-level
    Python server validates no input schema, so this function sees a null mode where both other SDKs' schema checks
    refuse it first)."""
    if not isinstance(operation_id, str) or operation_id == "" or not isinstance(title, str) or title == "":
        raise InvalidArguments("operation_id and title are required")
    if utf16_length(operation_id) > MAX_OPERATION_ID_LENGTH:
        raise InvalidArguments(f"operation_id is longer than {MAX_OPERATION_ID_LENGTH} characters")
    if utf16_length(title) > MAX_TEXT_LENGTH:
        raise InvalidArguments(f"title is longer than {MAX_TEXT_LENGTH} characters")
    if mode is ABSENT:
        return GuardedArguments(operation_id, title, "atomic")
    if not isinstance(mode, str) or mode not in MODES:
        raise InvalidArguments("mode must be 'atomic' or 'partial'")
    return GuardedArguments(operation_id, title, mode)


def guarded_arguments_of(arguments: dict) -> GuardedArguments:
    return guarded_arguments(
        arguments.get("operation_id"), arguments.get("title"), arguments.get("mode", ABSENT)
    )


def arguments_digest(arguments: Any) -> str:
    """Lowercase hex SHA-256 of canonical_json({operation_id, title, mode}) with an absent mode as atomic, taken from
    the values as they come: a digest of anything but the minted strings simply does not match."""
    if not isinstance(arguments, dict):
        raise TypeError("tool arguments must be an object")
    for name in ("operation_id", "title"):
        if name not in arguments:
            raise TypeError(f"{name} is missing")  # undefined in TypeScript, which canonical JSON refuses too
    mode = arguments.get("mode")
    bound = {
        "operation_id": arguments["operation_id"],
        "title": arguments["title"],
        "mode": "atomic" if mode is None else mode,
    }
    return hashlib.sha256(canonical_json(bound).encode("utf-8")).hexdigest()
