// Package requeststate is the fixture's requestState: the Go SDK (v1.8.0) carries requestState as an opaque
// string on CallToolResult and CallToolParamsRaw and offers no codec, so the fixture seals its own.
//
// A token is "v1." + base64url(payload) + "." + base64url(HMAC-SHA256(state key, label || "v1." + payload
// segment)), both segments unpadded. The payload is the canonical JSON of
//
//	{"arguments_digest", "audience", "expires_at", "method", "principal", "state", "tool"}
//
// so the token is bound to the method, the tool, the SHA-256 of the call's canonical arguments, the principal, the
// fixture (audience) and an expiry on the injected clock; "state" is the application continuation state (seed
// spec §3) that goes to the bridge. The token is readable by the client, as the TypeScript fixture's is; only
// the MAC makes it trustworthy. Only the spelling Mint produces opens.
package requeststate

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"

	"lab.continuationreplay/gofixture/internal/fingerprint"
)

// Frozen refusal wording, the same in every lab server.
const (
	InvalidMessage = "Invalid or expired requestState"
	InvalidReason  = "invalid_request_state"
	// MaxLength bounds what is even looked at.
	MaxLength = 8192
	// Audience names this fixture, so another server's token never opens here even under the same key.
	Audience = "continuation-replay-go-fixture"
	Method   = "tools/call"
	label    = "continuation-replay-go-fixture requestState\x00"
)

var tokenShape = regexp.MustCompile(`^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$`)

// ContinuationState is the application state the guard reads (members in minting order).
type ContinuationState struct {
	OperationID        string
	Nonce              string
	IssuedAt           int64
	AuthorityExpiresAt int64
	ReplayExpiresAt    int64
}

// JSON is the state as the bridge's apply request carries it.
func (s ContinuationState) JSON() map[string]any {
	return map[string]any{"v": int64(1), "operation_id": s.OperationID, "nonce": s.Nonce, "issued_at": s.IssuedAt,
		"authority_expires_at": s.AuthorityExpiresAt, "replay_expires_at": s.ReplayExpiresAt}
}

// Binding is what a token is bound to, besides the key.
type Binding struct {
	Tool            string
	ArgumentsDigest string
	Principal       string
}

// Codec mints and opens tokens under one key, on one clock.
type Codec struct {
	key []byte
	ttl int64
	now func() int64
}

// NewCodec: key of at least 32 bytes; ttl in seconds; now is the injected clock.
func NewCodec(key []byte, ttlSeconds int64, now func() int64) (*Codec, error) {
	if len(key) < 32 {
		return nil, errors.New("the requestState key must contain at least 32 bytes")
	}
	return &Codec{key: append([]byte(nil), key...), ttl: ttlSeconds, now: now}, nil
}

// NewState is a fresh continuation state: a new 16-byte nonce each time, so two first rounds are two operations.
func NewState(operationID string, now, authorityTTL, replayTTL int64) ContinuationState {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	return ContinuationState{operationID, hex.EncodeToString(nonce), now, now + authorityTTL, now + replayTTL}
}

func (c *Codec) mac(body string) string {
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte(label + "v1." + body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Mint seals a state for this binding; it expires TTL seconds from now.
func (c *Codec) Mint(b Binding, s ContinuationState) (string, error) {
	payload, err := fingerprint.Canonical(map[string]any{
		"method": Method, "tool": b.Tool, "arguments_digest": b.ArgumentsDigest, "principal": b.Principal,
		"audience": Audience, "expires_at": c.now() + c.ttl, "state": s.JSON(),
	})
	if err != nil {
		return "", err
	}
	body := base64.RawURLEncoding.EncodeToString([]byte(payload))
	return "v1." + body + "." + c.mac(body), nil
}

// Rejection says why a token did not open; the words go to stderr only, never to the wire.
type Rejection struct{ Why string }

func (r *Rejection) Error() string { return "requestState rejected: " + r.Why }

func reject(format string, args ...any) error { return &Rejection{fmt.Sprintf(format, args...)} }

var payloadMembers = []string{"arguments_digest", "audience", "expires_at", "method", "principal", "state", "tool"}
var stateMembers = []string{"authority_expires_at", "issued_at", "nonce", "operation_id", "replay_expires_at", "v"}

// Open checks the spelling, the MAC, the payload's shape, every binding and the expiry (valid while now <
// expires_at), and returns the continuation state.
func (c *Codec) Open(token string, b Binding) (ContinuationState, error) {
	var s ContinuationState
	if len(token) > MaxLength {
		return s, reject("longer than %d characters", MaxLength)
	}
	m := tokenShape.FindStringSubmatch(token)
	if m == nil {
		return s, reject("not the shape of a token")
	}
	for _, segment := range m[1:] {
		decoded, err := base64.RawURLEncoding.DecodeString(segment)
		if err != nil || base64.RawURLEncoding.EncodeToString(decoded) != segment {
			return s, reject("not the canonical spelling of a token")
		}
	}
	if !hmac.Equal([]byte(c.mac(m[1])), []byte(m[2])) {
		return s, reject("MAC mismatch")
	}
	payloadText, _ := base64.RawURLEncoding.DecodeString(m[1])
	parsed, err := fingerprint.ParseExact(payloadText)
	if err != nil {
		return s, reject("payload is not JSON")
	}
	payload, ok := parsed.(map[string]any)
	if !ok || !sameMembers(payload, payloadMembers) {
		return s, reject("payload members")
	}
	switch {
	case payload["method"] != Method:
		return s, reject("minted for another method")
	case payload["audience"] != Audience:
		return s, reject("minted for another server")
	case payload["tool"] != b.Tool:
		return s, reject("minted for another tool")
	case payload["arguments_digest"] != b.ArgumentsDigest:
		return s, reject("minted for other arguments")
	case payload["principal"] != b.Principal:
		return s, reject("minted for another principal")
	}
	expires, ok := payload["expires_at"].(int64)
	if !ok || c.now() >= expires {
		return s, reject("expired")
	}
	state, ok := payload["state"].(map[string]any)
	if !ok || !sameMembers(state, stateMembers) || state["v"] != int64(1) {
		return s, reject("state members")
	}
	var okID, okNonce, okI, okA, okR bool
	s.OperationID, okID = state["operation_id"].(string)
	s.Nonce, okNonce = state["nonce"].(string)
	s.IssuedAt, okI = state["issued_at"].(int64)
	s.AuthorityExpiresAt, okA = state["authority_expires_at"].(int64)
	s.ReplayExpiresAt, okR = state["replay_expires_at"].(int64)
	if !(okID && okNonce && okI && okA && okR) {
		return ContinuationState{}, reject("state member types")
	}
	return s, nil
}

func sameMembers(obj map[string]any, names []string) bool {
	if len(obj) != len(names) {
		return false
	}
	for k := range obj {
		if !slices.Contains(names, k) {
			return false
		}
	}
	return true
}
