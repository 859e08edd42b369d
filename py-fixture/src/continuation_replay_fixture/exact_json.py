"""A strict RFC 8259 parser that never rounds a number: the twin of ts-fixture/src/exact-json.ts and of Java's
ExactJson (Jackson reading floats as BigDecimal).

json.loads would accept NaN and Infinity, keep only the last of two duplicate keys at the first one's place without
ever looking at the first value, and recurse past 1,000 levels; this parser decides every number from its literal's
digits and keeps a literal that is not exactly a safe integer as an InexactNumber, which the canonicaliser rejects
with its JSON path. Limits: nesting 1,100 levels, number literals of 1,000 characters.
"""

import re
import sys
from typing import Any, NoReturn

from .unicode_text import UNPAIRED_SURROGATE_IN_KEY, has_unpaired_surrogate, join_surrogate_pairs, path_segment

MAX_PARSE_DEPTH = 1100
MAX_NUMBER_LITERAL_LENGTH = 1000
MAX_SAFE = 9007199254740991

# Nesting of 1,100 levels takes about two Python frames a level.
if sys.getrecursionlimit() < 8000:
    sys.setrecursionlimit(8000)


class InexactNumber:
    """A number literal that is not exactly an integer within +-(2^53-1); kind is 'fraction' or 'range'."""

    __slots__ = ("literal", "kind")

    def __init__(self, literal: str, kind: str) -> None:
        self.literal = literal
        self.kind = kind

    def __repr__(self) -> str:
        return f"InexactNumber({self.literal!r}, {self.kind!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InexactNumber) and (self.literal, self.kind) == (other.literal, other.kind)

    def __hash__(self) -> int:
        return hash((self.literal, self.kind))


class JsonSyntaxError(ValueError):
    """Not JSON."""


class JsonValueError(ValueError):
    """Valid JSON syntax holding a value no fingerprint can bind; the message names the JSON path."""


_NUMBER_TOKEN = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBER_PARTS = re.compile(r"^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_WHITESPACE = " \t\n\r"
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def classify_number_literal(literal: str) -> "int | InexactNumber":
    """Exact value of a JSON number literal: a safe integer, or the reason it is not one."""
    parts = _NUMBER_PARTS.match(literal)
    if parts is None:
        raise JsonSyntaxError(f"invalid JSON: malformed number {literal}")
    fraction = parts.group(3) or ""
    digits = (parts.group(2) + fraction).lstrip("0")
    if digits == "":
        return 0  # every spelling of zero, -0 included, is the integer 0
    exponent = int(parts.group(4) or "0") - len(fraction)
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits = stripped
    if exponent < 0:
        return InexactNumber(literal, "fraction")
    # 2^53-1 has 16 digits; anything longer is out of range without computing 10^exponent.
    if len(digits) + exponent > 16:
        return InexactNumber(literal, "range")
    magnitude = int(digits) * 10**exponent
    if magnitude > MAX_SAFE:
        return InexactNumber(literal, "range")
    return -magnitude if parts.group(1) == "-" else magnitude


def parse_exact_json(text: str) -> Any:
    parser = _Parser(text)
    parser.skip_whitespace()
    value = parser.value(0, "$")
    parser.skip_whitespace()
    if parser.pos != len(text):
        parser.fail("unexpected content after the JSON value")
    return value


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, what: str) -> NoReturn:
        raise JsonSyntaxError(f"invalid JSON at offset {self.pos}: {what}")

    def skip_whitespace(self) -> None:
        text = self.text
        n = len(text)
        while self.pos < n and text[self.pos] in _WHITESPACE:
            self.pos += 1

    def value(self, depth: int, path: str) -> Any:
        if self.pos >= len(self.text):
            self.fail("unexpected end of input")
        c = self.text[self.pos]
        if c == "{":
            return self.object(depth + 1, path)
        if c == "[":
            return self.array(depth + 1, path)
        if c == '"':
            return self.string()
        if c == "t":
            return self.literal("true", True)
        if c == "f":
            return self.literal("false", False)
        if c == "n":
            return self.literal("null", None)
        if c == "-" or "0" <= c <= "9":
            return self.number()
        self.fail(f"unexpected character {c!r}")

    def literal(self, word: str, value: Any) -> Any:
        if not self.text.startswith(word, self.pos):
            self.fail(f"expected {word}")
        self.pos += len(word)
        return value

    def number(self) -> "int | InexactNumber":
        match = _NUMBER_TOKEN.match(self.text, self.pos)
        if match is None:
            self.fail("malformed number")
        literal = match.group(0)
        if len(literal) > MAX_NUMBER_LITERAL_LENGTH:
            self.fail(f"number literal longer than {MAX_NUMBER_LITERAL_LENGTH} characters")
        self.pos += len(literal)
        return classify_number_literal(literal)

    def string(self) -> str:
        text = self.text
        n = len(text)
        self.pos += 1  # opening quote
        out: list[str] = []
        run_start = self.pos
        escaped_unit = False
        while True:
            if self.pos >= n:
                self.fail("unterminated string")
            c = text[self.pos]
            if c == '"':
                out.append(text[run_start : self.pos])
                self.pos += 1
                joined = "".join(out)
                # Escaped surrogate halves pair up as they do in UTF-16; an unpaired one stays for the canonicaliser.
                return join_surrogate_pairs(joined) if escaped_unit else joined
            if c < " ":
                self.fail("unescaped control character in string")
            if c != "\\":
                self.pos += 1
                continue
            out.append(text[run_start : self.pos])
            escape = text[self.pos + 1] if self.pos + 1 < n else ""
            if escape in _SIMPLE_ESCAPES:
                out.append(_SIMPLE_ESCAPES[escape])
            elif escape == "u":
                hex4 = text[self.pos + 2 : self.pos + 6]
                if _HEX4.fullmatch(hex4) is None:
                    self.fail("invalid \\u escape")
                unit = int(hex4, 16)
                escaped_unit = escaped_unit or 0xD800 <= unit <= 0xDFFF
                out.append(chr(unit))
                self.pos += 4
            else:
                self.fail("invalid escape")
            self.pos += 2
            run_start = self.pos

    def enter(self, depth: int) -> None:
        if depth > MAX_PARSE_DEPTH:
            self.fail(f"nesting deeper than {MAX_PARSE_DEPTH} levels")
        self.pos += 1
        self.skip_whitespace()

    def array(self, depth: int, path: str) -> list:
        self.enter(depth)
        items: list = []
        if self.pos < len(self.text) and self.text[self.pos] == "]":
            self.pos += 1
            return items
        while True:
            items.append(self.value(depth, f"{path}[{len(items)}]"))
            self.skip_whitespace()
            c = self.text[self.pos] if self.pos < len(self.text) else ""
            if c == "]":
                self.pos += 1
                return items
            if c != ",":
                self.fail("expected , or ] in array")
            self.pos += 1
            self.skip_whitespace()

    def object(self, depth: int, path: str) -> dict:
        self.enter(depth)
        members: dict = {}
        if self.pos < len(self.text) and self.text[self.pos] == "}":
            self.pos += 1
            return members
        while True:
            if self.pos >= len(self.text) or self.text[self.pos] != '"':
                self.fail("expected a string key")
            key = self.string()
            # Jackson refuses such a key while parsing, so this side does too, naming the same path (the object's).
            if has_unpaired_surrogate(key):
                raise JsonValueError(f"{path}: {UNPAIRED_SURROGATE_IN_KEY}")
            self.skip_whitespace()
            if self.pos >= len(self.text) or self.text[self.pos] != ":":
                self.fail("expected : after key")
            self.pos += 1
            self.skip_whitespace()
            value = self.value(depth, path + path_segment(key))
            members[key] = value  # a later duplicate replaces an earlier one, in the earlier one's place
            self.skip_whitespace()
            c = self.text[self.pos] if self.pos < len(self.text) else ""
            if c == "}":
                self.pos += 1
                return members
            if c != ",":
                self.fail("expected , or } in object")
            self.pos += 1
            self.skip_whitespace()
