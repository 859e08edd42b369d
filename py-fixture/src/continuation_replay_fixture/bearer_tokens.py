"""HTTP mode's principals: WIRE_BEARER_TOKENS_FILE is a JSON object principal -> bearer token, the same file and checks
as ts-fixture/src/bearer-tokens.ts. A request's `Authorization: Bearer <token>` names its principal; nothing else on
the wire can. Messages name the variable and the principal, never a token.
"""

import hashlib
import hmac
import json
import re
from typing import Mapping, Optional

from .trusted_environment import BEARER_TOKENS_FILE, ConfigurationError

MIN_TOKEN_CHARS = 32
# RFC 6750's b64token, so every accepted token can travel in a header unchanged.
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
_BEARER = re.compile(r"Bearer +(\S+) *", re.IGNORECASE)


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


class BearerTokens:
    """SHA-256 of each token, so a comparison takes the same time whatever the presented token's length or prefix."""

    def __init__(self, tokens: Mapping[str, str]) -> None:
        self._digests = [(principal, _digest(token)) for principal, token in tokens.items()]

    @property
    def principals(self) -> "list[str]":
        return [principal for principal, _ in self._digests]

    def principal_for(self, authorization: Optional[str]) -> Optional[str]:
        """The principal an Authorization header authenticates, or None (no header, another scheme, unknown token)."""
        if authorization is None:
            return None
        match = _BEARER.fullmatch(authorization)
        if match is None:
            return None
        presented = _digest(match.group(1))
        found = None
        # Every entry is compared, so the time does not tell which one matched.
        for principal, known in self._digests:
            if hmac.compare_digest(presented, known):
                found = principal
        return found

    def __repr__(self) -> str:  # the digests stay out of every log line too
        return f"BearerTokens(principals={self.principals!r})"


def _quoted(principal: str) -> str:
    """The principal as JSON.stringify writes it (non-ASCII characters as they are)."""
    return json.dumps(principal, ensure_ascii=False)


def read_bearer_tokens(path: str) -> BearerTokens:
    """Reads and validates the file; the first problem raises a ConfigurationError."""
    shape = f"{BEARER_TOKENS_FILE} must name a file holding a JSON object of principal to token"
    try:
        with open(path, "rb") as file:
            # As JSON.parse: the last of repeated principals counts.
            entries = json.loads(file.read().decode("utf-8"))
    except (OSError, ValueError):
        raise ConfigurationError(shape) from None
    if not isinstance(entries, dict):
        raise ConfigurationError(shape)
    if not entries:
        raise ConfigurationError(f"{BEARER_TOKENS_FILE} names no principal")
    tokens: "dict[str, str]" = {}
    owners: "dict[str, str]" = {}
    for principal, token in entries.items():
        if principal == "":
            raise ConfigurationError(f"{BEARER_TOKENS_FILE} has an empty principal")
        if not isinstance(token, str) or len(token) < MIN_TOKEN_CHARS or _TOKEN_SHAPE.fullmatch(token) is None:
            raise ConfigurationError(
                f"{BEARER_TOKENS_FILE}: the token of principal {_quoted(principal)} must be a bearer token of at "
                f"least {MIN_TOKEN_CHARS} characters"
            )
        owner = owners.get(token)
        # One token for two principals would make the principal depend on the file's order.
        if owner is not None:
            raise ConfigurationError(
                f"{BEARER_TOKENS_FILE}: principals {_quoted(owner)} and {_quoted(principal)} share a token"
            )
        owners[token] = principal
        tokens[principal] = token
    return BearerTokens(tokens)
