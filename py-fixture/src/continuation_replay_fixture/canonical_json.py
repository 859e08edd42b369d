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
    out: list[str] = []
    _emit(value, path, depth, out)
    return "".join(out)


def require_scalar_values(text: str, path: str) -> None:
    if has_unpaired_surrogate(text):
        raise CanonicalJsonError(f"{path}: {UNPAIRED_SURROGATE}")


def string_literal(text: str) -> str:
    """A well-formed string as the contract writes it: json.dumps without ensure_ascii escapes exactly
    the quote, the backslash, \\b \\f \\n \\r \\t and the other C0 controls as lowercase \\u00xx."""
    return json.dumps(text, ensure_ascii=False)


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
