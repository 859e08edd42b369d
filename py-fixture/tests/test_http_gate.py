"""HTTP mode's pure pieces: the bearer tokens file and its principals, the strict body gate, the loopback Host and
Origin rules, and the HTTP configuration (no WIRE_PRINCIPAL; the tokens file, the read timeout, close-after-commit)."""

import json

import pytest

from continuation_replay_fixture.bearer_tokens import BearerTokens, read_bearer_tokens
from continuation_replay_fixture.http_server import loopback_host, loopback_origin
from continuation_replay_fixture.strict_frames import PassBody, RefuseBody, judge_http_body
from continuation_replay_fixture.trusted_environment import ConfigurationError, read_config, read_http_config

ALICE = "alice-token-0123456789abcdef0123456789abcdef"
BOB = "bob-token-0123456789abcdef0123456789abcdef012"
PARSE = '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}'
INVALID = '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}'


def tokens_file(tmp_path, content) -> str:
    path = tmp_path / "tokens.json"
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    return str(path)


# --- bearer tokens -----------------------------------------------------------------------------------------------

def test_a_token_names_its_principal_and_nothing_else_does(tmp_path):
    tokens = read_bearer_tokens(tokens_file(tmp_path, {"alice": ALICE, "bob": BOB}))
    assert tokens.principals == ["alice", "bob"]
    assert tokens.principal_for(f"Bearer {ALICE}") == "alice"
    assert tokens.principal_for(f"bearer   {BOB} ") == "bob"  # the scheme is case-insensitive, spaces as in TypeScript
    assert tokens.principal_for(None) is None
    assert tokens.principal_for("") is None
    assert tokens.principal_for(f"Basic {ALICE}") is None
    assert tokens.principal_for(f"Bearer {ALICE}x") is None
    assert tokens.principal_for(f"Bearer {ALICE[:-1]}") is None
    assert tokens.principal_for(f"Bearer {ALICE} {BOB}") is None
    assert tokens.principal_for("Bearer") is None


def test_the_tokens_never_show_in_the_objects_text(tmp_path):
    tokens = read_bearer_tokens(tokens_file(tmp_path, {"alice": ALICE}))
    assert ALICE not in repr(tokens) and ALICE not in str(vars(tokens))


@pytest.mark.parametrize(
    "content, message",
    [
        (b"not json", "WIRE_BEARER_TOKENS_FILE must name a file holding a JSON object of principal to token"),
        (["alice", ALICE], "WIRE_BEARER_TOKENS_FILE must name a file holding a JSON object of principal to token"),
        (b"\xff{}", "WIRE_BEARER_TOKENS_FILE must name a file holding a JSON object of principal to token"),
        ({}, "WIRE_BEARER_TOKENS_FILE names no principal"),
        ({"": ALICE}, "WIRE_BEARER_TOKENS_FILE has an empty principal"),
        ({"alice": "short"}, 'WIRE_BEARER_TOKENS_FILE: the token of principal "alice" must be a bearer token of at least 32 characters'),
        ({"alice": 12345}, 'WIRE_BEARER_TOKENS_FILE: the token of principal "alice" must be a bearer token of at least 32 characters'),
        ({"élise": "a token with spaces in it, 32 chars or more"},
         'WIRE_BEARER_TOKENS_FILE: the token of principal "élise" must be a bearer token of at least 32 characters'),
        ({"alice": ALICE, "bob": ALICE}, 'WIRE_BEARER_TOKENS_FILE: principals "alice" and "bob" share a token'),
    ],
)
def test_a_bad_tokens_file_is_named_without_its_tokens(tmp_path, content, message):
    with pytest.raises(ConfigurationError) as refused:
        read_bearer_tokens(tokens_file(tmp_path, content))
    assert str(refused.value) == message
    assert ALICE not in str(refused.value)


def test_a_missing_tokens_file_is_refused(tmp_path):
    with pytest.raises(ConfigurationError, match="must name a file holding a JSON object"):
        read_bearer_tokens(str(tmp_path / "absent.json"))


# --- the strict body gate ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "body, line",
    [
        (b"", PARSE),
        (b"not json", PARSE),
        (b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}{"jsonrpc":"2.0"}', PARSE),
        (b'{"jsonrpc":"2.0","id":1,"method":"x\xff"}', PARSE),  # a lenient decode would read U+FFFD and go on
        (b'\xef\xbb\xbf{"jsonrpc":"2.0","id":1,"method":"tools/list"}', PARSE),  # a BOM is not JSON
        (b'{"jsonrpc":"2.0","id":NaN,"method":"tools/list"}', PARSE),
        (b"[1]", INVALID),
        (b'[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', INVALID),
        (b'"text"', INVALID),
        (b'{"id":5}', '{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request"}}'),
        (b'{"jsonrpc":"1.0","id":"a","method":"m"}', '{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request"}}'),
        (b'{"jsonrpc":2.0,"id":9007199254740993,"method":"m"}', INVALID),  # an id beyond 2^53-1 is not echoed
        (b'{"jsonrpc":"2.0","jsonrpc":"1.0","id":1.5}', INVALID),  # the last member counts; 1.5 is no id
    ],
)
def test_the_gate_refuses_with_the_stdio_gates_line(body, line):
    assert judge_http_body(body) == RefuseBody(line)


@pytest.mark.parametrize(
    "body",
    [
        b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        b'{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/list","extra":1}',  # over HTTP the SDK judges the rest
        b' {"jsonrpc":"2.0","method":"notifications/x"}\n',
    ],
)
def test_what_passes_reaches_the_sdk_as_the_bytes_that_were_checked(body):
    assert judge_http_body(body) == PassBody(body)


# --- loopback Host and Origin ------------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["127.0.0.1:8080", "localhost:1", "LOCALHOST", "[::1]:443", "127.0.0.1", "[::1]"])
def test_loopback_hosts_pass(host):
    assert loopback_host([host])


@pytest.mark.parametrize(
    "hosts",
    [[], ["evil.example"], ["evil.example:80"], ["127.0.0.1.evil.example"], ["localhost:"], ["localhost:80x"],
     ["[::1"], ["[::2]:80"], ["127.0.0.1:80", "127.0.0.1:80"], ["0.0.0.0:80"]],
)
def test_other_hosts_fail(hosts):
    assert not loopback_host(hosts)


@pytest.mark.parametrize("origins", [[], ["http://127.0.0.1:3000"], ["http://localhost"], ["https://[::1]:8443"]])
def test_loopback_origins_or_none_pass(origins):
    assert loopback_origin(origins)


@pytest.mark.parametrize(
    "origins",
    [["http://evil.example"], ["null"], ["file://"], ["http://localhost.evil.example"], ["http://127.0.0.1:x"],
     ["http://127.0.0.1", "http://127.0.0.1"], ["ftp://127.0.0.1"]],
)
def test_other_origins_fail(origins):
    assert not loopback_origin(origins)


# --- the HTTP configuration --------------------------------------------------------------------------------------

BASE = {
    "WIRE_SERVER_DB": "/tmp/x.sqlite3", "WIRE_BACKEND_ID": "b", "WIRE_CLOCK_EPOCH": "1790035200",
    "WIRE_AUTHORITY_TTL": "300", "WIRE_REPLAY_RETENTION_TTL": "360", "WIRE_REQUEST_STATE_TTL": "600",
    "WIRE_STATE_KEY_HEX": "11" * 32, "WIRE_FINGERPRINT_KEY_HEX": "22" * 32, "WIRE_BEARER_TOKENS_FILE": "/tmp/t.json",
}


def test_http_mode_needs_no_principal_but_a_tokens_file():
    config = read_http_config(BASE)
    assert config.read_timeout_ms == 10_000 and config.fault is None
    assert config.for_principal("bob").principal == "bob"
    # every other field as the stdio mode reads it from the same variables
    assert config.for_principal("bob") == read_config({**BASE, "WIRE_PRINCIPAL": "bob"})
    assert "11" * 32 not in repr(config)
    with pytest.raises(ConfigurationError, match="^WIRE_BEARER_TOKENS_FILE is required$"):
        read_http_config({**BASE, "WIRE_BEARER_TOKENS_FILE": ""})


def test_http_mode_knows_close_after_commit():
    assert read_http_config({**BASE, "WIRE_FAULT": "close-after-commit"}).fault == "close-after-commit"
    with pytest.raises(ConfigurationError, match=r"close-after-commit\]$"):
        read_http_config({**BASE, "WIRE_FAULT": "nope"})


@pytest.mark.parametrize(
    "value, outcome",
    [("500", 500), ("1e3", 1000), (" 2000 ", 2000), ("0", "WIRE_HTTP_READ_TIMEOUT_MS must be positive"),
     ("1.5", "WIRE_HTTP_READ_TIMEOUT_MS must be a whole number of milliseconds"),
     ("2147483648", "WIRE_HTTP_READ_TIMEOUT_MS is too large"), ("soon", "WIRE_HTTP_READ_TIMEOUT_MS must be numeric")],
)
def test_the_read_timeout_is_whole_milliseconds(value, outcome):
    env = {**BASE, "WIRE_HTTP_READ_TIMEOUT_MS": value}
    if isinstance(outcome, int):
        assert read_http_config(env).read_timeout_ms == outcome
    else:
        with pytest.raises(ConfigurationError) as refused:
            read_http_config(env)
        assert str(refused.value) == outcome


def test_an_accepted_connection_has_nagles_algorithm_off():
    """asyncio sets TCP_NODELAY only on accepted sockets whose proto is IPPROTO_TCP; with Nagle on, every request after
    the first on a kept connection waited about 40 ms for the client's delayed ACK."""
    import asyncio
    import socket

    from continuation_replay_fixture.http_server import listening_socket

    async def accepted_nodelay() -> int:
        seen: "asyncio.Future[int]" = asyncio.get_running_loop().create_future()

        def on_connection(reader, writer):
            seen.set_result(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        sock = listening_socket(0)
        server = await asyncio.start_server(on_connection, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection(*sock.getsockname()[:2])
            value = await asyncio.wait_for(seen, 10)
            writer.close()
        return value

    assert listening_socket(0).proto == socket.IPPROTO_TCP
    assert asyncio.run(accepted_nodelay()) != 0
