"""Canonical JSON text of the fingerprint contract (seed spec section 2.3; docs/fingerprint.md): code-point key order,
safe integers only, minimal escapes, no whitespace, unpaired surrogates rejected. The twin of
lab.continuationreplay.vectors.CanonicalJson and ts-fixture/src/canonical-json.ts: the same text, the same messages,
the same paths.

Values are what exact_json.parse_exact_json or json.loads give: None, bool, int, float, Decimal, str, list or tuple,
dict, InexactNumber. A float or Decimal that is an integer within the safe range is written as that integer (as Java
writes the BigDecimal 1.0 and JavaScript the number 1).
"""

import json
import math
from json.encoder import encode_basestring
from decimal import Decimal
from typing import Any

from .exact_json import MAX_SAFE, InexactNumber
from .unicode_text import UNPAIRED_SURROGATE, has_unpaired_surrogate, path_segment

MAX_CANONICAL_DEPTH = 1000
NOT_AN_INTEGER = "number must be an integer in the interoperable safe range"
OUTSIDE_SAFE_RANGE = "integer is outside the interoperable safe range"


class CanonicalJsonError(ValueError):
    """A value the contract cannot write; the message starts with its JSON path."""


def canonical_json(value: Any, path: str = "$") -> str:
    return canonical_at(value, path, 0)


def canonical_at(value: Any, path: str, depth: int) -> str:
    """Canonical text of `value` found at `path`, `depth` levels below the value being canonicalised."""
    if _plain(value, depth):
        # The common case, at C speed: for these types the json encoder writes exactly the contract's text (sort_keys
        # orders by code point; ensure_ascii=False escapes as string_literal does). A lone surrogate is the one
        # thing it would write that the contract refuses; the walk below names its path.
        text = _encode(value)
        if text.isascii() or not has_unpaired_surrogate(text):
            return text
    return _walked(value, path, depth)


def canonical_utf8_at(value: Any, path: str, depth: int) -> bytes:
    """canonical_at as UTF-8 bytes, what the fingerprint hashes: encoding is also the surrogate check (strict UTF-8
    cannot encode a surrogate), so the common case scans the text once."""
    if _plain(value, depth):
        try:
            return _encode(value).encode("utf-8")
        except UnicodeEncodeError:
            pass
    return _walked(value, path, depth).encode("utf-8")


def _walked(value: Any, path: str, depth: int) -> str:
    out: list[str] = []
    _emit(value, path, depth, out)
    return "".join(out)


def _unsupported(value: Any) -> Any:
    raise TypeError(f"unsupported JSON value {type(value).__name__}")


# json.dumps builds a new C encoder at every call, which is most of the cost for a small value: this one is built
# once (no circular-reference markers: parsed JSON has no cycles, and _plain's depth bound ends a cyclic walk).
if json.encoder.c_make_encoder is not None:
    _C_ENCODER = json.encoder.c_make_encoder(None, _unsupported, encode_basestring, None, ":", ",", True, False, True)

    def _encode(value: Any) -> str:
        return "".join(_C_ENCODER(value, 0))
else:  # an interpreter without the C accelerator: the same text, slower
    _encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode

# json.dumps recurses in C; far below MAX_CANONICAL_DEPTH, so a deep value takes the walk that reports the depth.
_PLAIN_DEPTH = 200


def _plain(value: Any, depth: int) -> bool:
    """True when every part of `value` is a type json.dumps writes as the contract does: str keys, safe ints, no
    float, Decimal or InexactNumber (an integral float is written as an integer here, and json.dumps would not)."""
    kind = type(value)
    if kind is dict:
        if depth >= _PLAIN_DEPTH:
            return False
        for key in value:
            if type(key) is not str:
                return False
        items = value.values()
    elif kind is list or kind is tuple:
        if depth >= _PLAIN_DEPTH:
            return False
        items = value
    else:
        return _plain_scalar(value, kind)
    inner = depth + 1
    # scalars are checked in the loop: a call per member is most of this walk's cost
    for item in items:
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if not -MAX_SAFE <= item <= MAX_SAFE:
                return False
        elif not _plain(item, inner):
            return False
    return True


def _plain_scalar(value: Any, kind: type) -> bool:
    if kind is str or kind is bool or value is None:
        return True
    return kind is int and -MAX_SAFE <= value <= MAX_SAFE


def require_scalar_values(text: str, path: str) -> None:
    if has_unpaired_surrogate(text):
        raise CanonicalJsonError(f"{path}: {UNPAIRED_SURROGATE}")


def string_literal(text: str) -> str:
    """A well-formed string as the contract writes it: json.dumps without ensure_ascii escapes exactly
    the quote, the backslash, \\b \\f \\n \\r \\t and the other C0 controls as lowercase \\u00xx; this is its
    string writer, called directly."""
    return encode_basestring(text)


def _integer_text(value: Any, path: str) -> str:
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise CanonicalJsonError(f"{path}: {NOT_AN_INTEGER}")
        if abs(value) > MAX_SAFE:
            raise CanonicalJsonError(f"{path}: {OUTSIDE_SAFE_RANGE}")
        number = int(value)
    else:  # Decimal
        if not value.is_finite() or value != value.to_integral_value():
            raise CanonicalJsonError(f"{path}: {NOT_AN_INTEGER}")
        # Compared as a Decimal first: 1e400 is integral but must not be turned into a 400-digit int.
        if abs(value) > MAX_SAFE:
            raise CanonicalJsonError(f"{path}: {OUTSIDE_SAFE_RANGE}")
        number = int(value)
    if abs(number) > MAX_SAFE:
        raise CanonicalJsonError(f"{path}: {OUTSIDE_SAFE_RANGE}")
    return str(number)


def _enter(depth: int, path: str) -> int:
    if depth + 1 > MAX_CANONICAL_DEPTH:
        raise CanonicalJsonError(f"{path}: nesting deeper than {MAX_CANONICAL_DEPTH} levels")
    return depth + 1


def _emit(value: Any, path: str, depth: int, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        require_scalar_values(value, path)
        out.append(string_literal(value))
    elif isinstance(value, (int, float, Decimal)):
        out.append(_integer_text(value, path))
    elif isinstance(value, InexactNumber):
        raise CanonicalJsonError(f"{path}: {NOT_AN_INTEGER if value.kind == 'fraction' else OUTSIDE_SAFE_RANGE}")
    elif isinstance(value, (list, tuple)):
        inner = _enter(depth, path)
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _emit(item, f"{path}[{i}]", inner, out)
        out.append("]")
    elif isinstance(value, dict):
        inner = _enter(depth, path)
        for key in value:
            if not isinstance(key, str):
                raise CanonicalJsonError(f"{path}: object keys must be strings")
        out.append("{")
        # Python compares strings by code point: exactly the contract's order (not UTF-16 code-unit order).
        for i, key in enumerate(sorted(value)):
            member_path = path + path_segment(key)
            require_scalar_values(key, member_path)
            if i:
                out.append(",")
            out.append(string_literal(key))
            out.append(":")
            _emit(value[key], member_path, inner, out)
        out.append("}")
    else:
        raise CanonicalJsonError(f"{path}: unsupported JSON value {type(value).__name__}")
