"""The fixture's trusted configuration, read from its environment only (the WIRE_* names of DESIGN.md), never from the
wire: the twin of Java's TrustedEnvironment and ts-fixture/src/trusted-environment.ts, checked against the shared
table vectors/rules/trusted-environment.json. A refusal names the variable, never its value.

Numbers are read as java.math.BigDecimal reads a string after String.trim(), and must be whole seconds within 2^53-1.
"""

import re
import unicodedata
from dataclasses import dataclass, fields
from typing import Any, Mapping, Optional

SERVER_DB = "WIRE_SERVER_DB"
# A PostgreSQL ledger: the bridge reads it (with its user and password); then WIRE_SERVER_DB may be absent.
LEDGER_URL = "WIRE_LEDGER_URL"
BACKEND_ID = "WIRE_BACKEND_ID"
PRINCIPAL = "WIRE_PRINCIPAL"
CLOCK_EPOCH = "WIRE_CLOCK_EPOCH"
AUTHORITY_TTL = "WIRE_AUTHORITY_TTL"
REPLAY_RETENTION_TTL = "WIRE_REPLAY_RETENTION_TTL"
REQUEST_STATE_TTL = "WIRE_REQUEST_STATE_TTL"
STATE_KEY_HEX = "WIRE_STATE_KEY_HEX"
FINGERPRINT_KEY_HEX = "WIRE_FINGERPRINT_KEY_HEX"
FAULT = "WIRE_FAULT"
BEARER_TOKENS_FILE = "WIRE_BEARER_TOKENS_FILE"
HTTP_READ_TIMEOUT_MS = "WIRE_HTTP_READ_TIMEOUT_MS"
CONFORMANCE_STATE_TTL = "WIRE_CONFORMANCE_STATE_TTL"

MIN_KEY_BYTES = 32
MAX_SAFE = 9007199254740991
_INT_MIN = -(2**31)
_INT_MAX = 2**31 - 1
_HEX = re.compile(r"[0-9a-fA-F]*")

# The lab faults (LabFault's order); stdio has no connection to close, so no close-after-commit here.
LAB_FAULTS = (
    "drop-after-commit",
    "exit-after-ledger-insert",
    "exit-after-issue-insert",
    "exit-after-partial-first-commit",
)

# HTTP mode also knows close-after-commit: a connection to close after the commit.
HTTP_FAULTS = (*LAB_FAULTS, "close-after-commit")
DEFAULT_HTTP_READ_TIMEOUT_MS = 10_000
DEFAULT_CONFORMANCE_STATE_TTL = 60
_MAX_TIMER_MS = 2**31 - 1


class ConfigurationError(ValueError):
    pass


@dataclass(frozen=True)
class LedgerConfig:
    """What both modes read alike: everything but the principal (stdio's WIRE_PRINCIPAL, HTTP's bearer tokens)."""

    database: str
    backend_id: str
    clock_epoch: int
    authority_ttl: int
    replay_retention_ttl: int
    request_state_ttl: int
    state_key: bytes
    fingerprint_key: bytes
    fault: Optional[str]


@dataclass(frozen=True)
class FixtureConfig(LedgerConfig):
    principal: str

    def __repr__(self) -> str:  # the keys are secrets: never in a log line
        return f"FixtureConfig(principal={self.principal!r}, clock_epoch={self.clock_epoch}, fault={self.fault!r})"


@dataclass(frozen=True)
class HttpFixtureConfig(LedgerConfig):
    """HTTP mode's configuration: the stdio one without WIRE_PRINCIPAL (each request's principal comes from its
    bearer token), plus the tokens file and the read timeout."""

    # None only under the conformance profile, which may serve without bearer tokens.
    bearer_tokens_file: Optional[str]
    read_timeout_ms: int

    def for_principal(self, principal: str) -> FixtureConfig:
        """The configuration the guarded tools see for one request of `principal`."""
        return FixtureConfig(**{f.name: getattr(self, f.name) for f in fields(LedgerConfig)}, principal=principal)

    def __repr__(self) -> str:  # the keys are secrets: never in a log line
        return f"HttpFixtureConfig(clock_epoch={self.clock_epoch}, fault={self.fault!r})"


def _database(env: Mapping[str, str]) -> str:
    """WIRE_SERVER_DB, required unless WIRE_LEDGER_URL names a PostgreSQL ledger (then ""): the fixture never opens
    the ledger itself, the bridge does, and the bridge validates the URL and its password."""
    if env.get(LEDGER_URL, ""):
        return env.get(SERVER_DB, "")
    return required(env, SERVER_DB)


def _read_ledger(env: Mapping[str, str], faults: "tuple[str, ...]", principal: bool) -> "dict[str, Any]":
    """The LedgerConfig fields (and with `principal`, WIRE_PRINCIPAL in its place after the backend), validated in a
    fixed order; the first bad one raises."""
    values: "dict[str, Any]" = {"database": _database(env), "backend_id": required(env, BACKEND_ID)}
    if principal:
        values["principal"] = required(env, PRINCIPAL)
    values.update(
        clock_epoch=clock_epoch(env),
        authority_ttl=positive_seconds(env, AUTHORITY_TTL),
        replay_retention_ttl=positive_seconds(env, REPLAY_RETENTION_TTL),
        request_state_ttl=positive_seconds(env, REQUEST_STATE_TTL),
        state_key=key_bytes(env, STATE_KEY_HEX),
        fingerprint_key=key_bytes(env, FINGERPRINT_KEY_HEX),
        fault=fault(env, faults),
    )
    return values


def read_config(env: Mapping[str, str]) -> FixtureConfig:
    """Reads and validates every variable, in a fixed order; the first bad one raises."""
    return FixtureConfig(**_read_ledger(env, LAB_FAULTS, principal=True))


def read_http_config(env: Mapping[str, str], conformance: bool = False) -> HttpFixtureConfig:
    """HTTP mode's variables, in read_config's order without WIRE_PRINCIPAL, the HTTP ones last (as the TypeScript
    fixture's readHttpConfig). Under the conformance profile an unset or empty tokens file means no tokens at all."""
    ledger = _read_ledger(env, HTTP_FAULTS, principal=False)
    no_tokens = conformance and env.get(BEARER_TOKENS_FILE, "") == ""
    return HttpFixtureConfig(
        **ledger,
        bearer_tokens_file=None if no_tokens else required(env, BEARER_TOKENS_FILE),
        read_timeout_ms=read_timeout_ms(env),
    )


def conformance_state_ttl(env: Mapping[str, str]) -> int:
    """WIRE_CONFORMANCE_STATE_TTL, the conformance fixtures' state lifetime on the real clock: whole seconds, positive,
    read like the other TTLs; unset or empty is the default."""
    value = env.get(CONFORMANCE_STATE_TTL)
    if value is None or value == "":
        return DEFAULT_CONFORMANCE_STATE_TTL
    return positive_seconds(env, CONFORMANCE_STATE_TTL)


def read_timeout_ms(env: Mapping[str, str]) -> int:
    """Optional; whole milliseconds read like the TTLs, so the same spellings are accepted everywhere."""
    value = env.get(HTTP_READ_TIMEOUT_MS)
    if value is None or value == "":
        return DEFAULT_HTTP_READ_TIMEOUT_MS
    unscaled, scale = _decimal(env, HTTP_READ_TIMEOUT_MS)
    if unscaled <= 0:
        raise ConfigurationError(f"{HTTP_READ_TIMEOUT_MS} must be positive")
    millis = _whole_seconds(HTTP_READ_TIMEOUT_MS, unscaled, scale, unit="milliseconds")
    # The TypeScript fixture's limit (Node's timers), kept so both accept the same values.
    if millis > _MAX_TIMER_MS:
        raise ConfigurationError(f"{HTTP_READ_TIMEOUT_MS} is too large")
    return millis


def required(env: Mapping[str, str], name: str) -> str:
    value = env.get(name)
    if value is None or value == "":
        raise ConfigurationError(f"{name} is required")
    return value


def clock_epoch(env: Mapping[str, str]) -> int:
    unscaled, scale = _decimal(env, CLOCK_EPOCH)
    if unscaled < 0:
        raise ConfigurationError(f"{CLOCK_EPOCH} must not be negative")
    return _whole_seconds(CLOCK_EPOCH, unscaled, scale)


def positive_seconds(env: Mapping[str, str], name: str) -> int:
    unscaled, scale = _decimal(env, name)
    if unscaled <= 0:
        raise ConfigurationError(f"{name} must be positive")
    return _whole_seconds(name, unscaled, scale)


def key_bytes(env: Mapping[str, str], name: str) -> bytes:
    text = required(env, name)
    if len(text) % 2 != 0 or _HEX.fullmatch(text) is None:
        raise ConfigurationError(f"{name} must be hexadecimal")
    key = bytes.fromhex(text)
    if len(key) < MIN_KEY_BYTES:
        raise ConfigurationError(f"{name} must contain at least {MIN_KEY_BYTES} bytes")
    return key


def fault(env: Mapping[str, str], allowed: "tuple[str, ...]" = LAB_FAULTS) -> Optional[str]:
    value = env.get(FAULT)
    if value is None or value == "":
        return None
    if value not in allowed:
        raise ConfigurationError(f"{FAULT} must be one of [{', '.join(allowed)}]")
    return value


def _decimal(env: Mapping[str, str], name: str) -> "tuple[int, int]":
    """(unscaled, scale) with value = unscaled x 10^-scale, as new BigDecimal(text.trim()) reads it."""
    text = _java_trim(required(env, name))
    lower = text.lower()
    if lower == "nan" or "inf" in lower:
        raise ConfigurationError(f"{name} must be finite")
    parsed = _parse_big_decimal(text)
    if parsed is None:
        raise ConfigurationError(f"{name} must be numeric")
    return parsed


def _java_trim(text: str) -> str:
    """String.trim(): strips every character up to U+0020 at both ends, and nothing else."""
    start, end = 0, len(text)
    while start < end and ord(text[start]) <= 0x20:
        start += 1
    while end > start and ord(text[end - 1]) <= 0x20:
        end -= 1
    return text[start:end]


def _digit_value(c: str) -> int:
    """Character.digit(c, 10): ASCII digits and the other BMP decimal digits (Nd); Java reads UTF-16 code units, so
    an astral digit (half of a surrogate pair there) is never one."""
    if "0" <= c <= "9":
        return ord(c) - 0x30
    if ord(c) > 0xFFFF:
        return -1
    return unicodedata.decimal(c, -1)


def _parse_big_decimal(text: str) -> "tuple[int, int] | None":
    """The grammar of new BigDecimal(String): sign? digits with at most one '.', then e|E sign? digits."""
    i, n = 0, len(text)
    negative = False
    if i < n and text[i] in "+-":
        negative = text[i] == "-"
        i += 1
    digits: list[str] = []
    fraction_digits = 0
    saw_point = False
    while i < n:
        c = text[i]
        if c == ".":
            if saw_point:
                return None
            saw_point = True
            i += 1
            continue
        if c in "eE":
            break
        d = _digit_value(c)
        if d < 0:
            return None
        digits.append(str(d))
        if saw_point:
            fraction_digits += 1
        i += 1
    if not digits:
        return None
    exponent = 0
    if i < n:
        i += 1  # the e or E
        exponent_negative = False
        if i < n and text[i] in "+-":
            exponent_negative = text[i] == "-"
            i += 1
        exponent_digits: list[str] = []
        while i < n:
            d = _digit_value(text[i])
            if d < 0:
                return None
            exponent_digits.append(str(d))
            i += 1
        if not exponent_digits:
            return None
        exponent = int("".join(exponent_digits)) * (-1 if exponent_negative else 1)
        if exponent < _INT_MIN or exponent > _INT_MAX:
            return None
    scale = fraction_digits - exponent
    if scale < _INT_MIN or scale > _INT_MAX:
        return None
    magnitude = int("".join(digits))
    return (-magnitude if negative else magnitude), scale


def _whole_seconds(name: str, unscaled: int, scale: int, unit: str = "seconds") -> int:
    magnitude = abs(unscaled)
    if magnitude == 0:
        return 0
    digits = str(magnitude)
    trailing_zeros = len(digits) - len(digits.rstrip("0"))
    if scale > trailing_zeros:
        raise ConfigurationError(f"{name} must be a whole number of {unit}")
    # 2^53-1 has 16 digits: more digits after scaling is too large, decided without computing 10^-scale.
    if len(digits) - scale > 16:
        raise ConfigurationError(f"{name} is too large")
    whole = unscaled // 10**scale if scale >= 0 else unscaled * 10**-scale
    if whole > MAX_SAFE:
        raise ConfigurationError(f"{name} is too large")
    return whole
