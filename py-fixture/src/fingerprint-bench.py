"""`lab bench` benchmark 4, Python side: the twin of ts-fixture/src/bench/fingerprint-bench.ts.

    CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX=... py-fixture/.venv/bin/python py-fixture/src/fingerprint-bench.py \
        REQUESTS.jsonl [MILLIS]

For each request of a JSON Lines file ({"name":...,"request":LogicalRequest}, read as the fixture reads a request) it
times three things in this one process, each with a warm-up of half of MILLIS (default 2000) and then MILLIS of
batches of 16 calls:

- fingerprint: the fixture's own request_fingerprint, everything included;
- bare: the hashing no fingerprint can avoid, over bytes computed once beforehand: HMAC-SHA256 of the two opaque-field
  messages and SHA-256 of the canonical payload, with the primitives the fingerprint uses (hmac.new with
  hashlib.sha256, hashlib.sha256);
- floor: the bare HMACs plus the cheapest way Python has to write the payload text and hash it: the C json encoder
  (json.dumps, compact separators, no ASCII escaping) over a tree that is already in canonical member order, encoded
  to UTF-8 and hashed. It checks nothing, sorts nothing, copies nothing, so no canonicaliser written for this runtime
  can cost less; the distance between fingerprint and floor is what the fixture's checks and ordering cost, the
  distance between floor and bare is the price of producing text at all.

The bench refuses to time numbers it cannot vouch for: the hand-built payload must hash to the fixture's digest, and
the floor's bytes must be the payload's bytes exactly (otherwise json.dumps is not writing canonical JSON for that
input and its time would be the time of something else).

Prints one JSON line on stdout: {"python": version, "results": [{name, digest, canonical_payload_bytes,
fingerprint_ns_per_op, fingerprint_ops, bare_ns_per_op, bare_ops, floor_ns_per_op, floor_ops, floor_rounds}]}, where
floor_rounds holds the fingerprint/floor ratio of each of 5 interleaved rounds. The key is never
printed. Bad usage exits 2 with a `usage:` line; a bad input or a failed self-check exits 1 with one line on stderr.
"""

import sys

# As the other entry scripts: the lab's runs leave src/ as they found it (the launcher's stale check reads src/).
sys.dont_write_bytecode = True

import hashlib  # noqa: E402
import hmac  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import re  # noqa: E402
import time  # noqa: E402
from typing import Any, Callable, NoReturn  # noqa: E402

from continuation_replay_fixture.canonical_json import canonical_json  # noqa: E402
from continuation_replay_fixture.exact_json import parse_exact_json  # noqa: E402
from continuation_replay_fixture.fingerprint import (  # noqa: E402
    OPAQUE_FIELDS,
    FingerprintKey,
    bind_opaque_field,
    request_fingerprint,
)
from continuation_replay_fixture.logical_request import read_named_request  # noqa: E402

KEY_VARIABLE = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX"
USAGE = f"usage: {KEY_VARIABLE}=<hex, at least 64 digits> fingerprint-bench.py REQUESTS.jsonl [MILLIS]"
# Even length as well as TS's 64 digits: bytes.fromhex refuses an odd one, where node would silently drop the last digit.
_KEY_HEX = re.compile(r"(?:[0-9a-fA-F]{2}){32,}")
BATCH = 16
ROUNDS = 5


class BenchFailure(Exception):
    """One line for stderr; the run stops with exit 1 and prints nothing on stdout."""


def measure(work: Callable[[], Any], millis: float) -> "tuple[float, int]":
    """(mean ns per call, calls) of `work` over `millis` after a warm-up of half that: the TS bench's scheme, so the
    two languages' figures mean the same thing."""
    sink = None

    def run(budget_ms: float) -> "tuple[float, int]":
        nonlocal sink
        budget = round(budget_ms * 1e6)
        ops = 0
        start = time.perf_counter_ns()
        elapsed = 0
        while elapsed < budget:
            # One clock read per 16 calls, as in TS: its cost is shared by the batch rather than added to every call.
            for _ in range(BATCH):
                sink = work()
            ops += BATCH
            elapsed = time.perf_counter_ns() - start
        return elapsed / ops, ops

    run(millis / 2)
    result = run(millis)
    if sink is None:
        raise BenchFailure("the timed work returned nothing")
    return result


def bench_request(key: FingerprintKey, key_bytes: bytes, name: "str | None", request, millis: float) -> dict:
    label = name if name is not None else "(unnamed request)"
    digest = request_fingerprint(key, request)
    messages = [
        field.encode("utf-8") + b"\x00" + canonical_json(getattr(request, field), f"$.{field}").encode("utf-8")
        for field in OPAQUE_FIELDS
    ]
    payload = canonical_json({
        "principal": request.principal,
        "tool_id": request.tool_id,
        "tool_version": request.tool_version,
        "arguments": request.arguments,
        "continuation_state": bind_opaque_field(key, "continuation_state", request.continuation_state),
        "input_responses": bind_opaque_field(key, "input_responses", request.input_responses),
    }).encode("utf-8")
    # The bare and floor figures only stand beside the fingerprint's if they hash the very bytes it hashes.
    if hashlib.sha256(payload).hexdigest() != digest:
        raise BenchFailure(f"{label}: the SHA-256 of the canonical payload built here is not the fixture's fingerprint")
    first, second = messages
    # Locals, so that looking up module attributes is not counted as hashing.
    sha256 = hashlib.sha256

    def fingerprint() -> str:
        return request_fingerprint(key, request)

    def bare() -> "tuple[str, str, str]":
        a = hmac.new(key_bytes, first, sha256).hexdigest()
        b = hmac.new(key_bytes, second, sha256).hexdigest()
        return a, b, sha256(payload).hexdigest()

    # json.loads keeps members in text order, so parsing canonical text gives a tree already in canonical order and
    # json.dumps writes it back without sorting: the encoder alone, nothing a canonicaliser could skip.
    ordered = json.loads(payload.decode("utf-8"))
    dumps = json.dumps

    def floor() -> "tuple[str, str, str]":
        a = hmac.new(key_bytes, first, sha256).hexdigest()
        b = hmac.new(key_bytes, second, sha256).hexdigest()
        return a, b, sha256(dumps(ordered, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()

    if floor()[2] != digest:
        raise BenchFailure(
            f"{label}: Python's json.dumps does not produce the canonical payload bytes for this request,"
            " so its time is no floor for a canonicaliser"
        )
    full_ns, full_ops = measure(fingerprint, millis)
    bare_ns, bare_ops = measure(bare, millis)
    floor_ns, floor_ops = measure(floor, millis)
    # Row 4's ratio, as the other rows' are: fingerprint and floor timed in turn, round by round (the order flips),
    # so a drift of the machine lands on both; the bench takes the median round's.
    floor_rounds = []
    for round_number in range(ROUNDS):
        pair = (fingerprint, floor) if round_number % 2 == 0 else (floor, fingerprint)
        first_ns = measure(pair[0], millis / ROUNDS)[0]
        second_ns = measure(pair[1], millis / ROUNDS)[0]
        fingerprint_ns, floor_round_ns = (first_ns, second_ns) if round_number % 2 == 0 else (second_ns, first_ns)
        floor_rounds.append(fingerprint_ns / floor_round_ns)
    return {
        "name": name,
        "digest": digest,
        "canonical_payload_bytes": len(payload),
        "fingerprint_ns_per_op": full_ns,
        "fingerprint_ops": full_ops,
        "bare_ns_per_op": bare_ns,
        "bare_ops": bare_ops,
        "floor_ns_per_op": floor_ns,
        "floor_ops": floor_ops,
        "floor_rounds": floor_rounds,
    }


def usage() -> NoReturn:
    sys.stderr.write(USAGE + "\n")
    sys.exit(2)


def parse_millis(text: "str | None") -> float:
    if text is None:
        return 2000.0
    try:
        millis = float(text)
    except ValueError:
        usage()
    if not math.isfinite(millis) or millis <= 0:
        usage()
    return millis


def run(args: "list[str]", env) -> dict:
    if not 1 <= len(args) <= 2:
        usage()
    key_hex = env.get(KEY_VARIABLE)
    if key_hex is None or _KEY_HEX.fullmatch(key_hex) is None:
        usage()
    millis = parse_millis(args[1] if len(args) == 2 else None)
    key_bytes = bytes.fromhex(key_hex)
    key = FingerprintKey(key_bytes)
    try:
        with open(args[0], "rb") as file:
            data = file.read()
    except OSError as error:
        raise BenchFailure(f"cannot read {args[0]}: {error.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BenchFailure(f"{args[0]}: invalid UTF-8") from None
    results = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip() == "":
            continue
        try:
            named = read_named_request(parse_exact_json(line))
            results.append(bench_request(key, key_bytes, named.name, named.request, millis))
        except (ValueError, TypeError) as error:
            # The fixture's errors carry their JSON path; the line number says which request it was.
            raise BenchFailure(f"line {number}: {error}") from None
    return {"python": platform.python_version(), "results": results}


def main() -> int:
    try:
        report = run(sys.argv[1:], os.environ)
    except BenchFailure as failure:
        sys.stderr.write(f"fingerprint-bench: {failure}\n")
        return 1
    out = open(sys.stdout.fileno(), "w", encoding="utf-8", newline="\n", closefd=False)
    try:
        out.write(json.dumps(report, ensure_ascii=False, separators=(",", ":")) + "\n")
    finally:
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
