// Package conformance is the fixture's conformance profile (--http PORT --conformance): the official conformance
// suite's fixture tools, prompts, resources and completion (@modelcontextprotocol/conformance 0.2.0-alpha.12,
// requirements 2026-07-28), registered on the Go SDK beside the guarded tools, the same list and texts as the
// TypeScript fixture's (ts-fixture/src/conformance-fixtures.ts). None of them has an effect.
//
// The multi-round fixtures seal every requestState they issue and read their progress only from the opened
// payload. test_input_required_result_elicitation is the one exception, forced by the suite: its
// ignore-extra-params and missing-input-response scenarios continue it without any state and expect it to complete
// or ask again, so it issues none, and a state sent to it is refused.
package conformance

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"regexp"

	"lab.continuationreplay/gofixture/internal/fingerprint"
)

// Principal is every request's principal when the profile runs without a tokens file.
const Principal = "conformance"

// The seal's own names: another audience and MAC label than the guarded tools' state, so neither kind opens as the
// other even under the same key.
const (
	audience     = "continuation-replay-go-fixture/conformance"
	label        = "continuation-replay-go-fixture conformance-fixture\x00"
	maxStateSize = 8192
)

var tokenShape = regexp.MustCompile(`^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$`)

// States seals and opens fixture states: bound to the method, the fixture's name, the SHA-256 of the canonical
// arguments, the principal, and an expiry on the real clock (WIRE_CONFORMANCE_STATE_TTL).
type States struct {
	key []byte
	ttl int64
	now func() int64
}

// NewStates: key of at least 32 bytes (the guarded state key), ttl in seconds, now in whole epoch seconds.
func NewStates(key []byte, ttl int64, now func() int64) *States {
	return &States{key: append([]byte(nil), key...), ttl: ttl, now: now}
}

func argumentsDigest(args any) (string, error) {
	if args == nil {
		args = map[string]any{}
	}
	if _, ok := args.(map[string]any); !ok {
		return "", errors.New("arguments are not an object")
	}
	text, err := fingerprint.Canonical(args)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:]), nil
}

func (s *States) mac(body string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(label + "v1." + body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Seal is a state for this call carrying the fixture's progress (data, any JSON value).
func (s *States) Seal(method, name string, args any, principal string, data any) (string, error) {
	digest, err := argumentsDigest(args)
	if err != nil {
		return "", err
	}
	payload, err := fingerprint.Canonical(map[string]any{"audience": audience, "method": method, "name": name,
		"arguments_digest": digest, "principal": principal, "expires_at": s.now() + s.ttl, "data": data})
	if err != nil {
		return "", err
	}
	body := base64.RawURLEncoding.EncodeToString([]byte(payload))
	return "v1." + body + "." + s.mac(body), nil
}

// Open returns the data of a state minted by Seal for exactly this call, or an error (the reason, for stderr only).
func (s *States) Open(token, method, name string, args any, principal string) (any, error) {
	if len(token) > maxStateSize {
		return nil, errors.New("too long")
	}
	m := tokenShape.FindStringSubmatch(token)
	if m == nil {
		return nil, errors.New("not a fixture state")
	}
	if !hmac.Equal([]byte(m[2]), []byte(s.mac(m[1]))) {
		return nil, errors.New("MAC mismatch")
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(m[1])
	if err != nil || base64.RawURLEncoding.EncodeToString(raw) != m[1] {
		return nil, errors.New("payload not canonical base64url")
	}
	parsed, err := fingerprint.ParseExact(raw)
	payload, ok := parsed.(map[string]any)
	if err != nil || !ok || len(payload) != 7 {
		return nil, errors.New("payload shape")
	}
	digest, err := argumentsDigest(args)
	if err != nil {
		return nil, err
	}
	expires, isInt := payload["expires_at"].(int64)
	switch {
	case payload["audience"] != audience:
		return nil, errors.New("another audience")
	case payload["method"] != method || payload["name"] != name:
		return nil, errors.New("minted for another fixture")
	case payload["arguments_digest"] != digest:
		return nil, errors.New("minted for other arguments")
	case payload["principal"] != principal:
		return nil, errors.New("minted for another principal")
	case !isInt || s.now() >= expires:
		return nil, errors.New("expired")
	}
	return payload["data"], nil
}
