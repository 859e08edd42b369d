"""Text rules shared by the parser and the canonicaliser, stated in UTF-16 terms as Java and TypeScript state them.

A Python string holds code points, so an astral character is one element here but two UTF-16 code units there, and an
unpaired surrogate is a code point in U+D800..U+DFFF. Every length limit of the lab counts UTF-16 code units.
"""

UNPAIRED_SURROGATE = "unpaired UTF-16 surrogate is not valid Unicode"
UNPAIRED_SURROGATE_IN_KEY = "object key with an unpaired UTF-16 surrogate is not valid Unicode"


def is_surrogate(code_point: int) -> bool:
    return 0xD800 <= code_point <= 0xDFFF


def has_unpaired_surrogate(text: str) -> bool:
    """True when the text holds a surrogate code point (a well-formed pair is always one astral code point here)."""
    if text.isascii():
        return False
    # a surrogate code point is always unpaired here (a well-formed pair is one astral code point), and it is the
    # one thing strict UTF-8 cannot encode: the codec finds it at C speed
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def utf16_length(text: str) -> int:
    """The length Java's String.length() and JavaScript's .length give."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def join_surrogate_pairs(text: str) -> str:
    """Combines each high surrogate directly followed by a low one (as \\u escapes produce them) into one code point."""
    if not any(0xD800 <= ord(c) <= 0xDBFF for c in text):
        return text
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = ord(text[i])
        if 0xD800 <= c <= 0xDBFF and i + 1 < n and 0xDC00 <= ord(text[i + 1]) <= 0xDFFF:
            out.append(chr(0x10000 + ((c - 0xD800) << 10) + (ord(text[i + 1]) - 0xDC00)))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def path_segment(key: str) -> str:
    """A key as it appears in an error path: unpaired surrogates and C0 controls shown as lowercase \\uXXXX."""
    out = []
    for c in key:
        code = ord(c)
        if code < 0x20 or 0xD800 <= code <= 0xDFFF:
            out.append("\\u%04x" % code)
        else:
            out.append(c)
    return "." + "".join(out)
