package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"lab.continuationreplay/gofixture/internal/fingerprint"
)

const testKeyHex = "746573742d6f6e6c792d63726f73732d6c616e67756167652d6b65792d333262"

// The worked example of docs/fingerprint.md; its digest is pinned in cmd/fingerprint-cli's tests too.
const vector00 = `{"name":"00_control_single_round","request":{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"},"continuation_state":"awaiting-body","input_responses":{"body":{"action":"accept","content":{"body":"alpha"}}}}}`

const vector00Digest = "8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97"

// No opaque fields, a null principal, nesting, the short escapes, a bare control, HTML characters and non-ASCII: the
// floor must still be the canonical bytes.
const escapes = `{"name":"escapes","request":{"principal":null,"tool_id":"t","tool_version":"2","arguments":{"z":[1,-2,true,null,{"b":"\b\f\n\r\t\u0001\"\\","a":"<b>&amp;</b> café 漢字 😀"}],"a":{}}}}`

var binary string

// The real binary, built as the Maven build builds it, so the tests see its exit codes and its streams.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fingerprint-bench-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "fingerprint-bench")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runBench runs the binary with the key variable set to key, or unset when key is nil.
func runBench(t *testing.T, key *string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, keyVariable+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if key != nil {
		cmd.Env = append(cmd.Env, keyVariable+"="+*key)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

func jsonl(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "requests.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func fixtureDigest(t *testing.T, line string) string {
	t.Helper()
	b, _ := hex.DecodeString(testKeyHex)
	k, err := fingerprint.NewKey(b)
	if err != nil {
		t.Fatal(err)
	}
	outcome := fingerprint.FingerprintLine(k, []byte(line))
	name, digest, ok := strings.Cut(outcome.Output, "\t")
	if outcome.Error != "" || !ok || name == "" {
		t.Fatalf("%q: %q", line, outcome.Error)
	}
	return digest
}

func TestTwoRequests(t *testing.T) {
	key := testKeyHex
	code, out, errOut := runBench(t, &key, jsonl(t, vector00, " \t\r", escapes), "50")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("not one line: %q", out)
	}
	if strings.Contains(out, testKeyHex) {
		t.Fatal("the key was printed")
	}
	var report map[string]json.RawMessage
	decoder := json.NewDecoder(strings.NewReader(out))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(&report); err != nil {
		t.Fatal(err)
	}
	if len(report) != 2 || !strings.HasPrefix(string(report["go"]), `"go`) {
		t.Fatalf("top level: %s", out)
	}
	var results []map[string]any
	if err := json.Unmarshal(report["results"], &results); err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results", len(results))
	}
	want := []struct{ name, digest string }{
		{"00_control_single_round", fixtureDigest(t, vector00)},
		{"escapes", fixtureDigest(t, escapes)},
	}
	if want[0].digest != vector00Digest {
		t.Fatalf("vector 00: %s", want[0].digest)
	}
	members := []string{"name", "digest", "canonical_payload_bytes", "fingerprint_ns_per_op", "fingerprint_ops",
		"bare_ns_per_op", "bare_ops", "floor_ns_per_op", "floor_ops", "floor_rounds"}
	for i, r := range results {
		if len(r) != len(members) {
			t.Errorf("%d: members %v", i, r)
		}
		if r["name"] != want[i].name || r["digest"] != want[i].digest {
			t.Errorf("%d: %v %v, want %+v", i, r["name"], r["digest"], want[i])
		}
		rounds, ok := r["floor_rounds"].([]any)
		if !ok || len(rounds) != 5 {
			t.Errorf("%d: floor_rounds %v", i, r["floor_rounds"])
		}
		for _, round := range rounds {
			if n, ok := round.(float64); !ok || !(n > 0) {
				t.Errorf("%d: a round's ratio %v", i, round)
			}
		}
		for _, m := range members[2 : len(members)-1] {
			if n, ok := r[m].(float64); !ok || !(n > 0) {
				t.Errorf("%d: %s = %v", i, m, r[m])
			}
		}
		for _, m := range []string{"canonical_payload_bytes", "fingerprint_ops", "bare_ops", "floor_ops"} {
			if n := r[m].(float64); n != float64(int64(n)) {
				t.Errorf("%d: %s = %v is not a count", i, m, n)
			}
		}
		if ops := r["fingerprint_ops"].(float64); int64(ops)%batch != 0 {
			t.Errorf("%d: %v ops is not whole batches", i, ops)
		}
	}
}

func TestBadUsageExitsTwo(t *testing.T) {
	key, short, odd := testKeyHex, testKeyHex[:62], testKeyHex+"a"
	file := jsonl(t, vector00)
	for _, c := range []struct {
		what string
		key  *string
		args []string
	}{
		{"no arguments", &key, nil},
		{"no key", nil, []string{file}},
		{"a key under 32 bytes", &short, []string{file}},
		{"an odd count of hex digits", &odd, []string{file}},
		{"MILLIS not a number", &key, []string{file, "soon"}},
		{"MILLIS zero", &key, []string{file, "0"}},
		{"too many arguments", &key, []string{file, "50", "more"}},
	} {
		code, out, errOut := runBench(t, c.key, c.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "usage:") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.what, code, out, errOut)
		}
		if strings.Contains(errOut, testKeyHex[:40]) {
			t.Errorf("%s: the key was printed", c.what)
		}
	}
}

// A bad line anywhere stops the run before anything is timed or printed.
func TestAMalformedLineIsOneClearLine(t *testing.T) {
	key := testKeyHex
	for _, c := range []struct{ line, want string }{
		{`{"name":"cut","request":{"principal":`, "fingerprint-bench: line 2: "},
		{`{"name":"x","request":{"tool_id":"a"}}`, "fingerprint-bench: line 2 (x): $.principal: required\n"},
		{`{"name":"x","request":{"principal":null,"tool_id":"a","tool_version":"1","arguments":{"n":1.5}}}`,
			"fingerprint-bench: line 2 (x): $.arguments.n: number must be an integer in the interoperable safe range\n"},
		{"\xff", "fingerprint-bench: line 2: invalid UTF-8\n"},
	} {
		code, out, errOut := runBench(t, &key, jsonl(t, vector00, c.line), "50")
		if code == 0 || out != "" || !strings.HasPrefix(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", c.line, code, out, errOut)
		}
	}
	if code, out, errOut := runBench(t, &key, filepath.Join(t.TempDir(), "absent.jsonl")); code != 1 || out != "" ||
		!strings.Contains(errOut, "absent.jsonl") {
		t.Errorf("absent file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, out, errOut := runBench(t, &key, jsonl(t, " ")); code != 1 || out != "" || !strings.Contains(errOut, "no request") {
		t.Errorf("no request: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// encoding/json escapes U+2028 and U+2029, which the canonical form writes as they are: no floor exists for such a
// request, and the run says so instead of timing other bytes.
func TestNoFloorWhereGoWritesOtherBytes(t *testing.T) {
	key := testKeyHex
	line := `{"name":"separator","request":{"principal":"p","tool_id":"t","tool_version":"1","arguments":{"s":"a` + "\u2028" + `b"}}}`
	fixtureDigest(t, line) // the fingerprint itself is defined
	code, out, errOut := runBench(t, &key, jsonl(t, line), "50")
	if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 ||
		!strings.HasPrefix(errOut, "fingerprint-bench: line 1 (separator): Go's encoding/json does not produce the canonical bytes") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
