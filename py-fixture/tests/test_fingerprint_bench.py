"""src/fingerprint-bench.py as a real process: its figures are only worth comparing with Java's and node's if it
fingerprints exactly what the fixture fingerprints, so the digests it prints are checked against the fixture (and, for
the seed vector, against the digest the shared vector file expects). Timings are only checked to be there: their
relations depend on the machine."""

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from continuation_replay_fixture.canonical_json import canonical_json
from continuation_replay_fixture.exact_json import parse_exact_json
from continuation_replay_fixture.fingerprint import FingerprintKey, bind_opaque_field, request_fingerprint
from continuation_replay_fixture.logical_request import read_named_request
from rule_table import REPO

SCRIPT = Path(__file__).resolve().parents[1] / "src" / "fingerprint-bench.py"
KEY_VARIABLE = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX"
# The shared vectors' test key (tests/test_vectors.py), so vector 00 must come out as the file's expected digest.
TEST_KEY_HEX = "746573742d6f6e6c792d63726f73732d6c616e67756167652d6b65792d333262"
KEY = FingerprintKey(bytes.fromhex(TEST_KEY_HEX))
MILLIS = "50"
RESULT_MEMBERS = {
    "name", "digest", "canonical_payload_bytes", "fingerprint_ns_per_op", "fingerprint_ops", "bare_ns_per_op",
    "bare_ops", "floor_ns_per_op", "floor_ops", "floor_rounds",
}

VECTORS = parse_exact_json((REPO / "vectors" / "fingerprint_vectors.json").read_text(encoding="utf-8"))
VECTOR_00 = next(entry for entry in VECTORS["vectors"] if entry["name"] == "00_control_single_round")
T0 = 1790035200


def larger_request() -> dict:
    """The shape of the Java bench's requests (bench/.../FingerprintRequests.java) with a few KiB of arguments holding
    what makes canonical text costly: escapes, non-ASCII, nesting, members to sort."""
    unit = 'line "quoted" \\ café ünïcödé 漢字 tab\t end. '
    details = {f"item-{i:04d}": {"text": unit * 2, "n": i * 7919, "tags": ["a", True, None]} for i in range(24, 0, -1)}
    state = canonical_json({"v": 1, "operation_id": "bench-small", "nonce": "661eed17995cd1b77e6812a2fd567408",
                            "issued_at": T0, "authority_expires_at": T0 + 300, "replay_expires_at": T0 + 360})
    return {
        "principal": "alice", "tool_id": "create_guarded_issue", "tool_version": "1",
        "arguments": {"title": "large", "operation_id": "bench-small", "mode": "atomic", "details": details},
        "continuation_state": state,
        "input_responses": {"body": {"_meta": None, "action": "accept", "content": {"body": "alpha"}}},
    }


LINES = [VECTOR_00, {"name": "larger-arguments", "request": larger_request()}]


def env(**overrides: "str | None") -> dict:
    base = {name: os.environ[name] for name in ("PATH", "LANG", "HOME", "TMPDIR") if name in os.environ}
    base[KEY_VARIABLE] = TEST_KEY_HEX
    for name, value in overrides.items():
        if value is None:
            base.pop(name, None)
        else:
            base[name] = value
    return base


def write_lines(path: Path, lines: "list[str]") -> Path:
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    return path


def bench(args: "list[str]", environment: "dict | None" = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], env=env() if environment is None else environment,
                          capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def requests_file(tmp_path_factory) -> Path:
    return write_lines(tmp_path_factory.mktemp("bench") / "requests.jsonl",
                       [json.dumps(line, ensure_ascii=False) for line in LINES])


@pytest.fixture(scope="module")
def run(requests_file) -> subprocess.CompletedProcess:
    return bench([str(requests_file), MILLIS])


def test_the_larger_request_has_a_few_kib_of_canonical_arguments():
    assert 2048 < len(canonical_json(LINES[1]["request"]["arguments"]).encode("utf-8")) < 8192


def test_a_run_prints_one_json_line_with_a_result_per_request_in_file_order(run):
    assert run.returncode == 0, run.stderr.decode()
    assert run.stdout.endswith(b"\n") and run.stdout.count(b"\n") == 1
    report = json.loads(run.stdout)
    assert set(report) == {"python", "results"}
    assert report["python"] == platform.python_version()
    assert [r["name"] for r in report["results"]] == [line["name"] for line in LINES]
    for result in report["results"]:
        assert set(result) == RESULT_MEMBERS
        assert len(result["floor_rounds"]) == 5 and all(r > 0 for r in result["floor_rounds"]), result


def test_the_digests_are_the_fixtures_fingerprints(run, requests_file):
    results = json.loads(run.stdout)["results"]
    for line, result in zip(requests_file.read_text(encoding="utf-8").splitlines(), results):
        named = read_named_request(parse_exact_json(line))
        assert result["digest"] == request_fingerprint(KEY, named.request), named.name
    assert results[0]["digest"] == VECTORS["expected"]["digests"]["00_control_single_round"]


def test_the_payload_size_is_that_of_the_canonical_payload(run):
    for line, result in zip(LINES, json.loads(run.stdout)["results"]):
        request = read_named_request(line).request
        payload = canonical_json({
            "principal": request.principal, "tool_id": request.tool_id, "tool_version": request.tool_version,
            "arguments": request.arguments,
            "continuation_state": bind_opaque_field(KEY, "continuation_state", request.continuation_state),
            "input_responses": bind_opaque_field(KEY, "input_responses", request.input_responses),
        })
        assert result["canonical_payload_bytes"] == len(payload.encode("utf-8")), line["name"]


def test_every_timing_is_positive_and_counts_whole_batches(run):
    for result in json.loads(run.stdout)["results"]:
        for kind in ("fingerprint", "bare", "floor"):
            assert result[f"{kind}_ns_per_op"] > 0, (result["name"], kind)
            assert result[f"{kind}_ops"] > 0 and result[f"{kind}_ops"] % 16 == 0, (result["name"], kind)


def test_the_key_is_never_printed(run):
    for stream in (run.stdout, run.stderr):
        assert TEST_KEY_HEX.encode() not in stream.lower()
        assert bytes.fromhex(TEST_KEY_HEX) not in stream


def usage_refused(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 2
    assert done.stdout == b""
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("usage:"), lines


def test_no_arguments_is_a_usage_error():
    usage_refused(bench([]))


@pytest.mark.parametrize("key", [None, "", "ab" * 31, "ab" * 32 + "a", "zz" * 32], ids=["missing", "empty", "short",
                                                                                    "odd", "not-hex"])
def test_a_missing_or_unusable_key_is_a_usage_error(requests_file, key):
    usage_refused(bench([str(requests_file), MILLIS], env(**{KEY_VARIABLE: key})))


@pytest.mark.parametrize("millis", ["0", "-5", "soon", "nan"])
def test_a_bad_budget_is_a_usage_error(requests_file, millis):
    usage_refused(bench([str(requests_file), millis]))


def one_line_failure(done: subprocess.CompletedProcess) -> str:
    assert done.returncode != 0
    assert done.stdout == b""
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("bad, says", [
    ('{"name":"broken","request":{"principal":"alice"', "line 2: "),
    ('{"name":"no-tool","request":{"principal":"alice","tool_version":"1","arguments":{}}}', "line 2: $.tool_id: required"),
    ('{"name":"fraction","request":{"principal":"alice","tool_id":"t","tool_version":"1","arguments":{"n":1.5}}}',
     "line 2: $.arguments.n: "),
], ids=["not-json", "not-a-request", "not-canonicalisable"])
def test_a_bad_line_stops_the_run_with_one_line_and_prints_no_results(tmp_path, bad, says):
    # A good request first: results already timed must not reach stdout once a later line fails.
    path = write_lines(tmp_path / "requests.jsonl", [json.dumps(VECTOR_00, ensure_ascii=False), bad])
    assert says in one_line_failure(bench([str(path), "5"]))


def test_a_file_that_cannot_be_read_fails_with_one_line(tmp_path):
    assert str(tmp_path / "absent.jsonl") in one_line_failure(bench([str(tmp_path / "absent.jsonl"), MILLIS]))


def test_a_serializer_that_does_not_write_the_canonical_bytes_stops_the_run_before_any_floor_is_timed(requests_file):
    # No input makes json.dumps differ from the canonical text today; a runtime whose compact dumps writes other bytes
    # (here: one trailing space) must be named, not timed as if it were the floor.
    program = (
        "import json, runpy, sys\n"
        "real = json.dumps\n"
        "json.dumps = lambda value, **options: real(value, **options) + (' ' if 'separators' in options else '')\n"
        f"sys.path.insert(0, {str(SCRIPT.parent)!r})\n"  # what running the script itself puts first
        f"sys.argv = [{str(SCRIPT)!r}, {str(requests_file)!r}, '5']\n"
        f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')\n"
    )
    done = subprocess.run([sys.executable, "-c", program], env=env(), capture_output=True, timeout=60)
    line = one_line_failure(done)
    assert done.returncode == 1
    assert "00_control_single_round" in line and "does not produce the canonical payload bytes" in line
