"""Strict reading of a continuation's input responses: the twin of Java's InputResponses and
ts-fixture/src/input-responses.ts (same rules, same messages, table vectors/rules/input-responses.json), applied
before the bridge is called so a malformed continuation never costs a bridge round trip."""

from typing import Any, Iterable

from .guarded_arguments import MAX_TEXT_LENGTH
from .unicode_text import utf16_length

NOT_ACCEPTED_TEXT = "body response must be accepted text"
_BODY_RESPONSE_MEMBERS = frozenset(("action", "content", "_meta"))


class InvalidInputResponses(ValueError):
    pass


def accepted_body(responses: Any, dropped: Iterable[str] = ()) -> str:
    """The accepted body text; `dropped` are keys an SDK removed before the handler saw them (none in Python: the
    fixture reads the responses as sent)."""
    if not isinstance(responses, dict):
        raise InvalidInputResponses("invalid input responses")
    keys = set(responses) | set(dropped)
    if "body" not in keys:
        raise InvalidInputResponses("missing body input response")
    if len(keys) != 1:
        raise InvalidInputResponses("unsupported input response fields")
    response = responses.get("body")
    if not isinstance(response, dict):
        raise InvalidInputResponses(NOT_ACCEPTED_TEXT)
    unsupported = sorted(name for name in response if name not in _BODY_RESPONSE_MEMBERS)
    if unsupported:
        raise InvalidInputResponses(f"unsupported body response fields: [{', '.join(unsupported)}]")
    content = response.get("content")
    accepted = response.get("action") == "accept" and isinstance(response.get("action"), str)
    no_meta = response.get("_meta") is None
    text_only = isinstance(content, dict) and len(content) == 1 and isinstance(content.get("body"), str)
    if not accepted or not no_meta or not text_only:
        raise InvalidInputResponses(NOT_ACCEPTED_TEXT)
    body = content["body"]
    if utf16_length(body) > MAX_TEXT_LENGTH:
        raise InvalidInputResponses(f"body is longer than {MAX_TEXT_LENGTH} characters")
    return body


def normalised_responses(body: str) -> dict:
    """{"body":{"_meta":null,"action":"accept","content":{"body":<body>}}}: what the bridge binds."""
    return {"body": {"_meta": None, "action": "accept", "content": {"body": body}}}
