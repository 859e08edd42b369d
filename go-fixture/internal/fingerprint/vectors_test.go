package fingerprint

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"lab.continuationreplay/gofixture/internal/repo"
)

const (
	testKeyASCII          = "test-only-cross-language-key-32b"
	testKeyHex            = "746573742d6f6e6c792d63726f73732d6c616e67756167652d6b65792d333262"
	vector00Digest        = "8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97"
	vector00BoundState    = "d4d85246fe21047dd450f54774a06f90fab65dab0476eab70af3aac5da739cfc"
	vector00BoundResponse = "41f2c8de4cba8e1429b26d4320fc7f3d93f513f04356c17c45b95ba60001de98"
)

type vector struct {
	name    string
	request LogicalRequest
}

// loadVectors reads vectors/fingerprint_vectors.json, where the Java and TypeScript tests read them too.
func loadVectors(t *testing.T) ([]vector, map[string]any) {
	t.Helper()
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, "vectors", "fingerprint_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := ParseExact(text)
	if err != nil {
		t.Fatal(err)
	}
	file := parsed.(map[string]any)
	var vectors []vector
	for _, entry := range file["vectors"].([]any) {
		name, named, err := ReadName(entry)
		if err != nil || !named {
			t.Fatalf("a vector without a name: %v", err)
		}
		request, err := ReadLogicalRequest(entry.(map[string]any)["request"])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		vectors = append(vectors, vector{name, request})
	}
	return vectors, file["expected"].(map[string]any)
}

func testKey(t *testing.T) Key {
	key, err := NewKey([]byte(testKeyASCII))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestSeventeenVectorsGiveTheirDigests(t *testing.T) {
	vectors, expected := loadVectors(t)
	if len(vectors) != 17 {
		t.Fatalf("%d vectors, want 17", len(vectors))
	}
	if expected["key_ascii"] != testKeyASCII || expected["key_hex"] != testKeyHex {
		t.Fatalf("the file's key is not the public test key")
	}
	digests := expected["digests"].(map[string]any)
	if len(digests) != 17 {
		t.Fatalf("%d expected digests", len(digests))
	}
	key := testKey(t)
	lowerHex := regexp.MustCompile(`^[0-9a-f]{64}$`)
	got := map[string]string{}
	for _, v := range vectors {
		digest, err := Fingerprint(key, v.request)
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		if !lowerHex.MatchString(digest) {
			t.Errorf("%s: %q is not 64 lowercase hex", v.name, digest)
		}
		if digest != digests[v.name] {
			t.Errorf("%s: %s, want %s", v.name, digest, digests[v.name])
		}
		got[v.name] = digest
	}
	for _, raw := range expected["relations"].([]any) {
		rel := raw.(map[string]any)
		left, right := got[rel["left"].(string)], got[rel["right"].(string)]
		if (left == right) != rel["equal"].(bool) {
			t.Errorf("relation %v / %v: equal should be %v (%v)", rel["left"], rel["right"], rel["equal"], rel["why"])
		}
	}
}

func TestVector00IsTheWorkedExample(t *testing.T) {
	vectors, _ := loadVectors(t)
	request := vectors[0].request
	if vectors[0].name != "00_control_single_round" {
		t.Fatalf("first vector is %s", vectors[0].name)
	}
	hexKeyBytes, _ := hex.DecodeString(testKeyHex)
	for _, bytes := range [][]byte{[]byte(testKeyASCII), hexKeyBytes} {
		key, _ := NewKey(bytes)
		if digest, _ := Fingerprint(key, request); digest != vector00Digest {
			t.Errorf("vector 00: %s", digest)
		}
	}
	key := testKey(t)
	if bound, _ := BindOpaqueField(key, ContinuationStateField, request.ContinuationState); bound != vector00BoundState {
		t.Errorf("bound state %s", bound)
	}
	if bound, _ := BindOpaqueField(key, InputResponsesField, request.InputResponses); bound != vector00BoundResponse {
		t.Errorf("bound responses %s", bound)
	}
	payload, err := Canonical(map[string]any{
		"principal": *request.Principal, "tool_id": request.ToolID, "tool_version": request.ToolVersion,
		"arguments": request.Arguments, "continuation_state": vector00BoundState, "input_responses": vector00BoundResponse,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"arguments":{"title":"spec"},"continuation_state":"` + vector00BoundState + `","input_responses":"` +
		vector00BoundResponse + `","principal":"alice","tool_id":"create_issue","tool_version":"1.0"}`
	if payload != want || SHA256Hex(payload) != vector00Digest {
		t.Errorf("payload %s", payload)
	}
}

func TestShortKeyIsRefused(t *testing.T) {
	if _, err := NewKey(make([]byte, 31)); err == nil || err.Error() != ShortKey {
		t.Fatalf("31 bytes: %v", err)
	}
	key, _ := NewKey(make([]byte, 32))
	if key.String() != "FingerprintKey[redacted]" {
		t.Fatal(key.String())
	}
}
