"""The fixture's own requestState binding (bound_request_state.py) and the frozen clock given to the SDK's boundary."""

import json

import mcp.server.request_state as request_state_module
import pytest

from continuation_replay_fixture.bound_request_state import (
    MintTimes,
    StateBindingError,
    check_payload,
    mint_payload,
    payload_text,
)
from continuation_replay_fixture.guarded_arguments import guarded_arguments
from continuation_replay_fixture.injected_clock import FrozenClock, pin_request_state_clock

T0 = 1790035200
TIMES = MintTimes(now=T0, authority_ttl=300, replay_retention_ttl=360, request_state_ttl=600)
ARGS = {"operation_id": "case-01", "title": "guarded-01"}


def minted(principal="alice"):
    return payload_text(mint_payload(guarded_arguments("case-01", "guarded-01"), principal, TIMES))


def check(text, **changes):
    bound = dict(method="tools/call", tool="create_guarded_issue", arguments=ARGS, principal="alice", now=T0)
    bound.update(changes)
    return check_payload(text, **bound)


def test_a_minted_payload_binds_and_carries_the_application_state():
    payload = check(minted())
    assert list(payload["state"]) == ["v", "operation_id", "nonce", "issued_at", "authority_expires_at", "replay_expires_at"]
    assert payload["state"]["operation_id"] == "case-01"
    assert (payload["state"]["issued_at"], payload["state"]["authority_expires_at"], payload["state"]["replay_expires_at"]) == (T0, T0 + 300, T0 + 360)
    assert payload["expires_at"] == T0 + 600
    assert len(payload["state"]["nonce"]) == 32
    assert minted() != minted()  # a fresh nonce: two first rounds are two operations
    assert minted().isascii()


def test_an_explicit_atomic_mode_binds_as_the_absent_one():
    check(minted(), arguments={**ARGS, "mode": "atomic"})


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"method": "prompts/get"}, "minted for another method"),
        ({"tool": "get_operation_status"}, "minted for another tool"),
        ({"arguments": {**ARGS, "title": "guarded-02"}}, "minted for other arguments"),
        ({"arguments": {**ARGS, "mode": "partial"}}, "minted for other arguments"),
        ({"arguments": {"title": "guarded-01"}}, "arguments cannot be digested"),
        ({"principal": "bob"}, "minted for another principal"),
        ({"now": T0 + 600}, "expired"),
        ({"now": T0 + 10_000}, "expired"),
    ],
)
def test_a_payload_for_another_request_or_past_its_expiry_is_refused(changes, reason):
    with pytest.raises(StateBindingError, match=f"^{reason}$"):
        check(minted(), **changes)


def test_the_last_second_before_expiry_still_binds():
    check(minted(), now=T0 + 599)


@pytest.mark.parametrize("text", [None, 7, "", "x", "[]", '{"v":1}', '"s"', json.dumps({"v": 2, "state": {}, "expires_at": 1})])
def test_text_that_is_not_a_payload_of_this_fixture_is_refused(text):
    with pytest.raises(StateBindingError):
        check(text)


def test_a_payload_with_a_boolean_expiry_is_refused():
    payload = json.loads(minted())
    payload["expires_at"] = True
    with pytest.raises(StateBindingError):
        check(json.dumps(payload))


def test_the_frozen_clock_replaces_only_the_sdk_module_clock():
    original = request_state_module.time
    try:
        clock = pin_request_state_clock(request_state_module, T0)
        assert request_state_module.time.time() == float(T0)
        assert request_state_module.time.monotonic() > 0  # everything else is the real time module
        assert isinstance(clock, FrozenClock)
    finally:
        request_state_module.time = original
    for bad in [-1, 1.5, True, "1"]:
        with pytest.raises(ValueError):
            FrozenClock(bad)
