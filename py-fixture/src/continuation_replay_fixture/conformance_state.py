"""The requestState of the conformance profile's multi-round fixtures.

The SDK's RequestStateBoundary, the same middleware and the same key (WIRE_STATE_KEY_HEX) that protect the guarded
tools' states, seals whatever string a handler returns as requestState (AES-256-GCM; claims binding method, name,
arguments, audience and a salted principal tag) and hands the handler only a string it sealed itself. That string is,
for a fixture, a payload of this module's own that binds again

  kind (so a guarded tool's payload never reads as a fixture's), method, name, arguments_digest (SHA-256 of the
  canonical arguments), principal, expires_at (the machine's real clock plus WIRE_CONFORMANCE_STATE_TTL),

around the fixture's progress (`data`). The boundary's own expiry reads the clock the lab pins to WIRE_CLOCK_EPOCH
(injected_clock.py), which never moves, so it cannot be the fixtures' expiry: a checker has to be able to wait a state
out. Every refusal here is a FixtureStateRefused, whose reason goes to stderr only; the wire gets the boundary's frozen
-32602.
"""

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any, Callable

from .canonical_json import CanonicalJsonError, canonical_json

# Every request's principal when the profile serves without a tokens file (the suite cannot send a bearer token).
CONFORMANCE_PRINCIPAL = "conformance"
PAYLOAD_KIND = "continuation-replay-py-fixture/conformance-fixture"
# A fixture's payload is a few hundred characters; the boundary hands over only what it sealed, so this bounds what
# the fixture itself ever parses, not what a client may send.
MAX_PAYLOAD_CHARS = 8192
_MEMBERS = frozenset(("kind", "method", "name", "arguments_digest", "principal", "expires_at", "data"))


class FixtureStateRefused(ValueError):
    """The opened state does not bind this request; the reason is for stderr only."""


def fixture_arguments_digest(arguments: Any) -> str:
    """Lowercase hex SHA-256 of the canonical JSON of a request's arguments; absent arguments count as `{}`."""
    value = {} if arguments is None else arguments
    if not isinstance(value, dict):
        raise FixtureStateRefused("arguments are not an object")
    try:
        text = canonical_json(value)
    except CanonicalJsonError as error:
        raise FixtureStateRefused(f"arguments cannot be digested: {error}") from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class FixtureCall:
    """The request a state is minted for or presented with, as the client sent it."""

    method: str
    name: str
    arguments: Any
    principal: str


def real_epoch_seconds() -> int:
    return int(time.time())


class FixtureStates:
    """Mints the plaintext the boundary seals, and checks the plaintext the boundary opened."""

    def __init__(self, ttl_seconds: int, now: Callable[[], int] = real_epoch_seconds) -> None:
        if isinstance(ttl_seconds, bool) or not isinstance(ttl_seconds, int) or ttl_seconds <= 0:
            raise ValueError("the fixture state lifetime must be whole, positive seconds")
        self._ttl = ttl_seconds
        self._now = now

    @property
    def ttl_seconds(self) -> int:
        return self._ttl

    def mint(self, call: FixtureCall, data: Any) -> str:
        """The requestState a fixture returns for the next round of `call`, carrying its progress `data`."""
        payload = {
            "kind": PAYLOAD_KIND,
            "method": call.method,
            "name": call.name,
            "arguments_digest": fixture_arguments_digest(call.arguments),
            "principal": call.principal,
            "expires_at": self._now() + self._ttl,
            "data": data,
        }
        return json.dumps(payload, separators=(",", ":"), ensure_ascii=True)

    def open(self, text: Any, call: FixtureCall) -> Any:
        """The `data` of `text` if it is a payload minted for exactly this call and has not expired; else refused."""
        if not isinstance(text, str):
            raise FixtureStateRefused("not a string")
        if len(text) > MAX_PAYLOAD_CHARS:
            raise FixtureStateRefused("payload too long")
        try:
            payload = json.loads(text)
        except ValueError:
            raise FixtureStateRefused("not a fixture payload") from None
        if not isinstance(payload, dict) or set(payload) != _MEMBERS or payload["kind"] != PAYLOAD_KIND:
            # A guarded tool's payload, opened by the same boundary under the same key, ends here.
            raise FixtureStateRefused("not a fixture payload")
        expires_at = payload["expires_at"]
        if isinstance(expires_at, bool) or not isinstance(expires_at, int):
            raise FixtureStateRefused("not a fixture payload")
        if payload["method"] != call.method or payload["name"] != call.name:
            raise FixtureStateRefused("minted for another fixture")
        if payload["arguments_digest"] != fixture_arguments_digest(call.arguments):
            raise FixtureStateRefused("minted for other arguments")
        if payload["principal"] != call.principal:
            raise FixtureStateRefused("minted for another principal")
        # Expired from expires_at on, as the boundary's own claim (now < exp is valid).
        if not self._now() < expires_at:
            raise FixtureStateRefused("expired")
        return payload["data"]
