"""The conformance fixtures' own payload binding (conformance_state.py), on a clock the test moves: what the SDK's
boundary hands the fixture after opening its seal is checked against this very call. The seal itself, on the wire,
is in test_conformance_profile.py."""

import json

import pytest

from continuation_replay_fixture.conformance_state import (
    PAYLOAD_KIND,
    FixtureCall,
    FixtureStateRefused,
    FixtureStates,
    fixture_arguments_digest,
)
from continuation_replay_fixture.guarded_arguments import guarded_arguments
from continuation_replay_fixture.bound_request_state import MintTimes, mint_payload, payload_text

CALL = FixtureCall("tools/call", "test_input_required_result_request_state", {}, "alice")


class Clock:
    def __init__(self, now: int) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def states(now: int = 1_000, ttl: int = 60) -> "tuple[FixtureStates, Clock]":
    clock = Clock(now)
    return FixtureStates(ttl, clock), clock


def test_a_minted_payload_opens_for_its_own_call_and_gives_back_its_data():
    fixtures, _ = states()
    text = fixtures.mint(CALL, {"name": "Ada"})
    assert fixtures.open(text, CALL) == {"name": "Ada"}
    payload = json.loads(text)
    assert payload["kind"] == PAYLOAD_KIND and payload["expires_at"] == 1_060 and payload["principal"] == "alice"


@pytest.mark.parametrize(
    "other",
    [
        FixtureCall("prompts/get", CALL.name, {}, "alice"),
        FixtureCall("tools/call", "test_input_required_result_tampered_state", {}, "alice"),
        FixtureCall("tools/call", CALL.name, {"x": "other"}, "alice"),
        FixtureCall("tools/call", CALL.name, {}, "bob"),
    ],
    ids=["other-method", "other-fixture", "other-arguments", "other-principal"],
)
def test_a_payload_never_opens_for_another_method_fixture_arguments_or_principal(other):
    fixtures, _ = states()
    with pytest.raises(FixtureStateRefused):
        fixtures.open(fixtures.mint(CALL, "asked"), other)


def test_absent_arguments_are_the_empty_object_and_anything_else_is_bound_exactly():
    assert fixture_arguments_digest(None) == fixture_arguments_digest({})
    assert fixture_arguments_digest({"a": 1, "b": "x"}) == fixture_arguments_digest({"b": "x", "a": 1.0})
    assert fixture_arguments_digest({"a": 1}) != fixture_arguments_digest({"a": "1"})
    for bad in ([], "x", {"a": 0.5}):
        with pytest.raises(FixtureStateRefused):
            fixture_arguments_digest(bad)


def test_the_payload_expires_on_its_clock_at_expires_at_not_after():
    fixtures, clock = states(now=1_000, ttl=3)
    text = fixtures.mint(CALL, "asked")
    clock.now = 1_002
    assert fixtures.open(text, CALL) == "asked"
    clock.now = 1_003
    with pytest.raises(FixtureStateRefused, match="expired"):
        fixtures.open(text, CALL)


@pytest.mark.parametrize(
    "text",
    [
        None,
        42,
        "",
        "not json",
        "[]",
        json.dumps({"kind": PAYLOAD_KIND}),
        # a guarded tool's payload, which the same boundary opens under the same key
        payload_text(mint_payload(guarded_arguments("op", "t"), "alice", MintTimes(1_000, 300, 360, 600))),
        "x" * 9000,
    ],
    ids=["none", "number", "empty", "not-json", "array", "partial", "guarded-payload", "oversized"],
)
def test_anything_but_a_fixture_payload_is_refused(text):
    fixtures, _ = states()
    with pytest.raises(FixtureStateRefused):
        fixtures.open(text, CALL)


def test_a_payload_with_a_changed_or_extra_member_is_refused():
    fixtures, _ = states()
    payload = json.loads(fixtures.mint(CALL, "asked"))
    for changed in ({**payload, "expires_at": True}, {**payload, "expires_at": 1_060.0}, {**payload, "extra": 1},
                    {**payload, "kind": "other"}):
        with pytest.raises(FixtureStateRefused):
            fixtures.open(json.dumps(changed), CALL)


def test_the_lifetime_must_be_whole_positive_seconds():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            FixtureStates(bad)  # type: ignore[arg-type]
