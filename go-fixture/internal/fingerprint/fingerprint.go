package fingerprint

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// MinKeyBytes is the shortest fingerprint key accepted.
const MinKeyBytes = 32

// ShortKey is the message for a key under MinKeyBytes.
var ShortKey = fmt.Sprintf("fingerprint key must contain at least %d bytes", MinKeyBytes)

// Key is a secret HMAC key of at least 32 bytes; it never prints its bytes.
type Key struct{ bytes []byte }

// NewKey copies the key bytes.
func NewKey(b []byte) (Key, error) {
	if len(b) < MinKeyBytes {
		return Key{}, errors.New(ShortKey)
	}
	return Key{bytes: append([]byte(nil), b...)}, nil
}

func (k Key) String() string { return "FingerprintKey[redacted]" }

// HMACHex is lowercase hex of HMAC-SHA256(key, message).
func (k Key) HMACHex(message string) string {
	mac := hmac.New(sha256.New, k.bytes)
	mac.Write([]byte(message))
	return hex.EncodeToString(mac.Sum(nil))
}

// LogicalRequest is what the fingerprint binds. ContinuationState and InputResponses are nil (null) when absent.
type LogicalRequest struct {
	Principal         *string
	ToolID            string
	ToolVersion       string
	Arguments         map[string]any
	ContinuationState any
	InputResponses    any
}

// The opaque fields, bound through HMAC in this order.
const (
	ContinuationStateField = "continuation_state"
	InputResponsesField    = "input_responses"
)

// BindOpaqueField is hex(HMAC(key, field || 0x00 || canonical(value))).
func BindOpaqueField(key Key, field string, value any) (string, error) {
	held := buffers.Get().(*[]byte)
	defer buffers.Put(held)
	message, err := canonicalBytes(append(append((*held)[:0], field...), 0), value, "$."+field, 0)
	*held = message
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key.bytes)
	mac.Write(message)
	return hex.EncodeToString(mac.Sum(nil)), nil
}

// SHA256Hex is lowercase hex of SHA-256.
func SHA256Hex(data string) string {
	sum := sha256.Sum256([]byte(data))
	return hex.EncodeToString(sum[:])
}

// Fingerprint is the request's 64 lowercase hex digest. The checks run in the order of the other languages:
// the two bound fields, then arguments (one level down), principal, tool_id and tool_version.
func Fingerprint(key Key, r LogicalRequest) (string, error) {
	if r.Arguments == nil {
		return "", &CanonicalError{"$.arguments: must be a JSON object"}
	}
	boundState, err := BindOpaqueField(key, ContinuationStateField, r.ContinuationState)
	if err != nil {
		return "", err
	}
	boundResponses, err := BindOpaqueField(key, InputResponsesField, r.InputResponses)
	if err != nil {
		return "", err
	}
	held := buffers.Get().(*[]byte)
	defer buffers.Put(held)
	payload, err := canonicalBytes(append((*held)[:0], `{"arguments":`...), r.Arguments, "$.arguments", 1)
	*held = payload
	if err != nil {
		return "", err
	}
	payload = append(payload, `,"continuation_state":"`...)
	payload = append(payload, boundState...)
	payload = append(payload, `","input_responses":"`...)
	payload = append(payload, boundResponses...)
	payload = append(payload, `","principal":`...)
	if r.Principal == nil {
		payload = append(payload, "null"...)
	} else {
		if err := RequireScalarValues(*r.Principal, "$.principal"); err != nil {
			return "", err
		}
		payload = appendQuoted(payload, *r.Principal)
	}
	for _, field := range []struct{ name, value string }{{"tool_id", r.ToolID}, {"tool_version", r.ToolVersion}} {
		if err := RequireScalarValues(field.value, "$."+field.name); err != nil {
			return "", err
		}
	}
	payload = append(payload, `,"tool_id":`...)
	payload = appendQuoted(payload, r.ToolID)
	payload = append(payload, `,"tool_version":`...)
	payload = appendQuoted(payload, r.ToolVersion)
	payload = append(payload, '}')
	*held = payload
	sum := sha256.Sum256(payload)
	return hex.EncodeToString(sum[:]), nil
}
