// Package httpserve is the fixture's HTTP mode (--http PORT): the SDK's own Streamable HTTP handler behind the
// checks the SDK leaves to the embedding (loopback Host/Origin, the path, the in-flight limit, bearer principals,
// the body limit and the strict body rules), so that a refused request never reaches a handler and has no effect.
package httpserve

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"lab.continuationreplay/gofixture/internal/config"
	"lab.continuationreplay/gofixture/internal/fingerprint"
)

// MinTokenChars is the shortest bearer token accepted.
const MinTokenChars = 32

// tokenShape is RFC 6750's b64token, so every accepted token can travel in a header unchanged.
var tokenShape = regexp.MustCompile(`^[A-Za-z0-9\-._~+/]+=*$`)

// authorizationShape is the header's Bearer form: the scheme in any case, one token, spaces around it.
var authorizationShape = regexp.MustCompile(`(?i)^Bearer +(\S+) *$`)

type entry struct {
	principal string
	digest    [sha256.Size]byte
}

// BearerTokens maps a presented token to its principal. Only the tokens' SHA-256 digests are kept, so every
// comparison takes the same time whatever the token's length or prefix.
type BearerTokens struct{ entries []entry }

// NewBearerTokens is the table of principal → token (already checked).
func NewBearerTokens(tokens map[string]string) *BearerTokens {
	b := &BearerTokens{}
	for principal, token := range tokens {
		b.entries = append(b.entries, entry{principal, sha256.Sum256([]byte(token))})
	}
	return b
}

// PrincipalFor is the principal an Authorization header authenticates; false for no header, another scheme or an
// unknown token. Every entry is compared, so the time does not tell which one matched.
func (b *BearerTokens) PrincipalFor(authorization string) (string, bool) {
	m := authorizationShape.FindStringSubmatch(authorization)
	if m == nil {
		return "", false
	}
	presented := sha256.Sum256([]byte(m[1]))
	found := ""
	for _, e := range b.entries {
		if subtle.ConstantTimeCompare(presented[:], e.digest[:]) == 1 {
			found = e.principal
		}
	}
	return found, found != ""
}

// ReadBearerTokens reads and checks the file WIRE_BEARER_TOKENS_FILE names: a JSON object principal → token, at
// least one, no empty principal, every token a b64token of at least 32 characters, no token shared by two
// principals. Messages name the variable and the principal, never a token (the TypeScript fixture's words).
func ReadBearerTokens(path string) (*BearerTokens, error) {
	shape := fmt.Errorf("%s must name a file holding a JSON object of principal to token", config.BearerTokensFile)
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, shape
	}
	trimmed := bytes.TrimSpace(text)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, shape
	}
	// Members in file order, so "share a token" names the principals as the file lists them.
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if _, err := dec.Token(); err != nil {
		return nil, shape
	}
	type member struct {
		principal string
		token     json.RawMessage
	}
	var members []member
	index := map[string]int{}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, shape
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, shape
		}
		name := key.(string)
		// A repeated principal keeps its first place and its last value, as JSON.parse and Object.entries do.
		if i, seen := index[name]; seen {
			members[i].token = value
			continue
		}
		index[name] = len(members)
		members = append(members, member{name, value})
	}
	if _, err := dec.Token(); err != nil || dec.More() {
		return nil, shape
	}
	if _, err := dec.Token(); err == nil {
		return nil, shape // a second value after the object
	}
	if len(members) == 0 {
		return nil, fmt.Errorf("%s names no principal", config.BearerTokensFile)
	}
	tokens := map[string]string{}
	owners := map[string]string{}
	for _, m := range members {
		if m.principal == "" {
			return nil, fmt.Errorf("%s has an empty principal", config.BearerTokensFile)
		}
		var token string
		if len(m.token) == 0 || m.token[0] != '"' || json.Unmarshal(m.token, &token) != nil ||
			len([]rune(token)) < MinTokenChars || !tokenShape.MatchString(token) {
			return nil, fmt.Errorf("%s: the token of principal %s must be a bearer token of at least %d characters",
				config.BearerTokensFile, quote(m.principal), MinTokenChars)
		}
		// One token for two principals would make the principal depend on the file's order.
		if owner, shared := owners[token]; shared {
			return nil, fmt.Errorf("%s: principals %s and %s share a token", config.BearerTokensFile, quote(owner), quote(m.principal))
		}
		owners[token] = m.principal
		tokens[m.principal] = token
	}
	return NewBearerTokens(tokens), nil
}

// quote is JSON.stringify's spelling of a principal, as the TypeScript fixture names it.
func quote(s string) string {
	var b strings.Builder
	fingerprint.QuoteString(&b, s)
	return b.String()
}
