package requeststate

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

var key = []byte("0123456789abcdef0123456789abcdef")

func codecAt(t *testing.T, k []byte, now *int64) *Codec {
	t.Helper()
	c, err := NewCodec(k, 600, func() int64 { return *now })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var binding = Binding{Tool: "create_guarded_issue", ArgumentsDigest: strings.Repeat("a", 64), Principal: "alice"}

func mint(t *testing.T, c *Codec) (string, ContinuationState) {
	t.Helper()
	s := NewState("op-1", 1000, 300, 360)
	token, err := c.Mint(binding, s)
	if err != nil {
		t.Fatal(err)
	}
	return token, s
}

func rejected(t *testing.T, err error, why string) {
	t.Helper()
	var r *Rejection
	if !errors.As(err, &r) || r.Why != why {
		t.Fatalf("want rejection %q, got %v", why, err)
	}
}

func TestRoundTrip(t *testing.T) {
	now := int64(1000)
	c := codecAt(t, key, &now)
	token, s := mint(t, c)
	got, err := c.Open(token, binding)
	if err != nil || got != s {
		t.Fatalf("%v %v", got, err)
	}
	if s.AuthorityExpiresAt != 1300 || s.ReplayExpiresAt != 1360 || len(s.Nonce) != 32 {
		t.Fatalf("%+v", s)
	}
	other, _ := mint(t, c)
	if other == token {
		t.Fatal("two first rounds gave one token")
	}
}

func TestExpiry(t *testing.T) {
	now := int64(1000)
	c := codecAt(t, key, &now)
	token, _ := mint(t, c)
	now = 1599
	if _, err := c.Open(token, binding); err != nil {
		t.Fatalf("one second before expiry: %v", err)
	}
	now = 1600
	_, err := c.Open(token, binding)
	rejected(t, err, "expired")
}

func TestForeignBindings(t *testing.T) {
	now := int64(1000)
	c := codecAt(t, key, &now)
	token, _ := mint(t, c)
	for why, b := range map[string]Binding{
		"minted for another tool":      {"get_operation_status", binding.ArgumentsDigest, "alice"},
		"minted for other arguments":   {binding.Tool, strings.Repeat("b", 64), "alice"},
		"minted for another principal": {binding.Tool, binding.ArgumentsDigest, "mallory"},
	} {
		_, err := c.Open(token, b)
		rejected(t, err, why)
	}
	otherKey := codecAt(t, []byte("fedcba9876543210fedcba9876543210"), &now)
	_, err := otherKey.Open(token, binding)
	rejected(t, err, "MAC mismatch")
}

func TestForgeries(t *testing.T) {
	now := int64(1000)
	c := codecAt(t, key, &now)
	token, _ := mint(t, c)
	parts := strings.Split(token, ".")
	body, _ := base64.RawURLEncoding.DecodeString(parts[1])
	changedBody := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(body), `"alice"`, `"mallor"`, 1)))
	lastFlipped := parts[2][:42] + string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[(strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", parts[2][42])+1)%64])
	cases := map[string]string{
		"":                                   "not the shape of a token",
		"v1":                                 "not the shape of a token",
		token + "=":                          "not the shape of a token",
		token + "\n":                         "not the shape of a token",
		" " + token:                          "not the shape of a token",
		"v2." + parts[1] + "." + parts[2]:    "not the shape of a token",
		"v1." + changedBody + "." + parts[2]: "MAC mismatch",
		"v1." + parts[1] + "." + lastFlipped: "MAC mismatch",
		strings.Repeat("v", MaxLength+1):     "longer than 8192 characters",
	}
	for forged, why := range cases {
		_, err := c.Open(forged, binding)
		var r *Rejection
		if !errors.As(err, &r) {
			t.Errorf("%.40q opened", forged)
			continue
		}
		// A flipped last character may only change the unused low bits: then the spelling check catches it.
		if r.Why != why && !(forged == "v1."+parts[1]+"."+lastFlipped && r.Why == "not the canonical spelling of a token") {
			t.Errorf("%.40q: %s, want %s", forged, r.Why, why)
		}
	}
}

func TestNonCanonicalSpellingOfTheSameBytes(t *testing.T) {
	now := int64(1000)
	c := codecAt(t, key, &now)
	token, _ := mint(t, c)
	parts := strings.Split(token, ".")
	// The MAC's last character carries two unused bits; set one: same bytes under a lax decoder, other text.
	alphabet := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, parts[2][42])
	respelt := parts[2][:42] + string(alphabet[last|1])
	if respelt == parts[2] {
		respelt = parts[2][:42] + string(alphabet[last&^1|2])
	}
	_, err := c.Open("v1."+parts[1]+"."+respelt, binding)
	rejected(t, err, "not the canonical spelling of a token")
}

func TestShortKeyRefused(t *testing.T) {
	if _, err := NewCodec(make([]byte, 31), 1, func() int64 { return 0 }); err == nil {
		t.Fatal("31-byte key accepted")
	}
}
