package frames

import (
	"encoding/hex"
	"io"
	"strings"
	"testing"

	"lab.continuationreplay/gofixture/internal/ruletable"
)

// lineOf builds a case's line: a string (UTF-8), or parts that are strings, {"hex"} or {"repeat","times"}.
func lineOf(t *testing.T, v any) []byte {
	t.Helper()
	if s, ok := v.(string); ok {
		return []byte(s)
	}
	var b []byte
	for _, part := range v.([]any) {
		switch p := part.(type) {
		case string:
			b = append(b, p...)
		case map[string]any:
			if h, ok := p["hex"].(string); ok {
				raw, err := hex.DecodeString(h)
				if err != nil {
					t.Fatal(err)
				}
				b = append(b, raw...)
			} else {
				b = append(b, strings.Repeat(p["repeat"].(string), int(p["times"].(int64)))...)
			}
		}
	}
	return b
}

// verdictThroughGate runs the line through the whole gate, as stdin would bring it.
func verdictThroughGate(line []byte) map[string]any {
	var stdout strings.Builder
	out := NewLineWriter(&stdout)
	pr, pw := io.Pipe()
	forwarded := make(chan []byte)
	go func() { b, _ := io.ReadAll(pr); forwarded <- b }()
	_ = Run(strings.NewReader(string(line)+"\n"), pw, out, nil)
	sdk := <-forwarded
	switch {
	case len(sdk) > 0:
		if string(sdk) != string(line)+"\n" {
			return map[string]any{"verdict": "forward", "as": strings.TrimSuffix(string(sdk), "\n")}
		}
		return map[string]any{"verdict": "forward"}
	case stdout.Len() > 0:
		return map[string]any{"verdict": "reply", "line": strings.TrimSuffix(stdout.String(), "\n")}
	}
	return map[string]any{"verdict": "drop"}
}

// goVerdicts are the cases where this gate gives a verdict neither Java's nor TypeScript's gate gives, each for a
// rule of this fixture's own (verdict.go): the Go SDK does not answer a request without an envelope version, it
// runs it on the pre-2026 path (requestProblem, docs/findings/go-sdk-stdio-frames.md); and it cannot decode an
// envelope whose repeated member starts with a value of another type, so such a line reaches it as the gate read it
// (forward).
var goVerdicts = map[string]map[string]any{
	"valid: a protocol version that is not a string (the SDK answers)":   missingVersion(`"x"`),
	"valid: no protocol version (the SDK answers)":                       missingVersion(`"x"`),
	"valid: whitespace around members":                                   missingVersion(`2`),
	"valid: whitespace around the object":                                missingVersion(`"x"`),
	"a valid request of 5 MiB":                                           missingVersion(`5`),
	"a number literal of 1,001 digits inside params":                     missingVersion(`1`),
	"valid: escapes, astral text, 1e400 and a long integer in arguments": missingVersion(`2`),
	"jsonrpc 2.0 then \"2.0\" (the last one counts)": {"verdict": "forward", "as": `{"jsonrpc":"2.0","id":7,"method":"tools/call",` +
		`"params":{"name":"create_guarded_issue","arguments":{"operation_id":"op","title":"t"},"inputResponses":{"body":{"action":"accept",` +
		`"content":{"body":"alpha"}}},"requestState":"v1.x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
}

func missingVersion(id string) map[string]any {
	return map[string]any{"verdict": "reply", "line": ErrorLine(id, -32602, MissingVersion, "")}
}

func TestStrictFramesTable(t *testing.T) {
	table, err := ruletable.Load("strict-frames.json")
	if err != nil {
		t.Fatal(err)
	}
	chose := map[string]int{}
	for _, c := range table.Cases {
		got := verdictThroughGate(lineOf(t, c.Row["line"]))
		if want, own := goVerdicts[c.Name]; own {
			if got["verdict"] != want["verdict"] || got["line"] != want["line"] || got["as"] != want["as"] {
				t.Errorf("%s: got %.300v, want this fixture's own %.300v", c.Name, got, want)
			}
			if _, matches := c.Matches(got); matches {
				t.Errorf("%s: now matches the table; drop it from goVerdicts", c.Name)
			}
			continue
		}
		lang, ok := c.Matches(got)
		if !ok {
			t.Errorf("%s: got %.300v, want %.300v", c.Name, got, c.Expected)
		}
		chose[lang]++
	}
	t.Logf("verdicts: %v shared, %v as TypeScript, %v as Java, %d of this fixture's own",
		chose["*"], chose["typescript"], chose["java"], len(goVerdicts))
}

func TestRequestStateThatIsNotAString(t *testing.T) {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, state := range []string{`5`, `null`, `{}`, `["v1"]`, `true`} {
		v := Judge([]byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{` + meta + `,"name":"n","requestState":` + state + `}}`))
		want := `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}}`
		if v.Kind != Reply || v.Line != want {
			t.Errorf("%s: %+v", state, v)
		}
	}
	if v := Judge([]byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{` + meta + `,"name":"n","requestState":"v1.x"}}`)); v.Kind != Forward {
		t.Errorf("a string state: %+v", v)
	}
}

func TestLineWriterPassesWholeLinesOnly(t *testing.T) {
	var out strings.Builder
	w := NewLineWriter(&out)
	_, _ = w.Write([]byte(`{"a"`))
	if out.Len() != 0 {
		t.Fatal("a partial line was written")
	}
	_ = w.WriteLine("x")
	_, _ = w.Write([]byte(":1}\n"))
	if out.String() != "x\n{\"a\":1}\n" {
		t.Fatalf("%q", out.String())
	}
}
