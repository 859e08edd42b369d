"""fingerprint-cli: JSON Lines of LogicalRequests (or {"name","request"}) on stdin, one digest (or name<TAB>digest) per
line on stdout; the contract of ./lab fingerprint and ts-fixture/dist/fingerprint-cli.js (docs/fingerprint.md).

Key: hex in CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX. A bad line: `line N: <reason>` on stderr, exit 2. With
--keep-going a bad line prints `!<reason>` (after `name<TAB>` when the name is known) in its place and the run goes on.
"""

import os
import re
import sys
from typing import BinaryIO, TextIO

from .exact_json import parse_exact_json
from .fingerprint import MIN_KEY_BYTES, FingerprintKey, request_fingerprint
from .logical_request import read_logical_request, read_name

KEY_VARIABLE = "CONTINUATION_REPLAY_FINGERPRINT_KEY_HEX"
_HEX_PAIRS = re.compile(r"(?:[0-9a-fA-F]{2})+")


def key_from_environment(env: "dict[str, str] | os._Environ[str]") -> "FingerprintKey | str":
    hex_text = env.get(KEY_VARIABLE, "")
    if hex_text == "":
        return f"{KEY_VARIABLE} is not set"
    if _HEX_PAIRS.fullmatch(hex_text) is None:
        return f"{KEY_VARIABLE} must be an even-length hexadecimal string"
    if len(hex_text) // 2 < MIN_KEY_BYTES:
        return f"{KEY_VARIABLE} must contain at least {MIN_KEY_BYTES} bytes"
    return FingerprintKey(bytes.fromhex(hex_text))


def is_blank_line(line: bytes) -> bool:
    return all(b in (0x20, 0x09, 0x0D) for b in line)


def fingerprint_line(key: FingerprintKey, line: bytes) -> "tuple[str, str | None]":
    """(output, error): the digest line, or `!reason` in its place and the reason."""
    name = None
    try:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            return "!invalid UTF-8", "invalid UTF-8"
        value = parse_exact_json(text)
        name = read_name(value)
        digest = request_fingerprint(key, read_logical_request(value if name is None else value["request"]))
        return (digest if name is None else f"{name}\t{digest}"), None
    except (ValueError, TypeError) as error:
        reason = str(error)
        return (f"!{reason}" if name is None else f"{name}\t!{reason}"), reason


def run(args: "list[str]", stdin: BinaryIO, stdout: TextIO, stderr: TextIO, env) -> int:
    unknown = [a for a in args if a != "--keep-going"]
    if unknown:
        stderr.write(f"usage: fingerprint-cli [--keep-going] (unknown argument {unknown[0]})\n")
        return 2
    keep_going = "--keep-going" in args
    key = key_from_environment(env)
    if isinstance(key, str):
        stderr.write(f"{key}\n")
        return 2
    failed = False
    for number, raw in enumerate(stdin, start=1):
        line = raw[:-1] if raw.endswith(b"\n") else raw
        if is_blank_line(line):
            continue
        output, error = fingerprint_line(key, line)
        if error is None or keep_going:
            stdout.write(output + "\n")
        if error is not None:
            failed = True
            stderr.write(f"line {number}: {error}\n")
            if not keep_going:
                return 2
    return 2 if failed else 0


def main() -> int:
    out = open(sys.stdout.fileno(), "w", encoding="utf-8", newline="\n", closefd=False)
    try:
        return run(sys.argv[1:], sys.stdin.buffer, out, sys.stderr, os.environ)
    finally:
        out.flush()


if __name__ == "__main__":
    sys.exit(main())
