package main

import (
	"strings"
	"testing"
)

const testKeyHex = "746573742d6f6e6c792d63726f73732d6c616e67756167652d6b65792d333262"

const vector00 = `{"name":"00_control_single_round","request":{"principal":"alice","tool_id":"create_issue","tool_version":"1.0","arguments":{"title":"spec"},"continuation_state":"awaiting-body","input_responses":{"body":{"action":"accept","content":{"body":"alpha"}}}}}`

func runWith(t *testing.T, key, input string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv(keyVariable, key)
	var out, errOut strings.Builder
	code := run(args, strings.NewReader(input), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestKeyProblemsNameTheVariable(t *testing.T) {
	for key, want := range map[string]string{
		"":         keyVariable + " is not set",
		"abc":      keyVariable + " must be an even-length hexadecimal string",
		"zz":       keyVariable + " must be an even-length hexadecimal string",
		"00112233": keyVariable + " must contain at least 32 bytes",
	} {
		if code, _, errOut := runWith(t, key, ""); code != 2 || errOut != want+"\n" {
			t.Errorf("%q: %d %q", key, code, errOut)
		}
	}
}

func TestLinesAndTheFirstBadLine(t *testing.T) {
	code, out, errOut := runWith(t, testKeyHex, vector00+"\n \t\r\n"+`{"principal":null,"tool_id":"a","tool_version":"1","arguments":{"n":1.5}}`+"\n"+vector00+"\n")
	if code != 2 || errOut != "line 3: $.arguments.n: number must be an integer in the interoperable safe range\n" {
		t.Fatalf("%d %q", code, errOut)
	}
	if out != "00_control_single_round\t8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97\n" {
		t.Fatalf("%q", out)
	}
}

func TestKeepGoing(t *testing.T) {
	code, out, errOut := runWith(t, testKeyHex, "\xff\n"+`{"name":"x","request":{"tool_id":"a"}}`+"\n"+vector00, "--keep-going")
	if code != 2 || out != "!invalid UTF-8\nx\t!$.principal: required\n00_control_single_round\t8053811d58bacfa928adfe862a3e1bda8040d18feef86b1b6eca9cd807c2cd97\n" {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	if code, _, errOut := runWith(t, testKeyHex, "", "--other"); code != 2 || !strings.Contains(errOut, "unknown argument --other") {
		t.Fatal(errOut)
	}
}
