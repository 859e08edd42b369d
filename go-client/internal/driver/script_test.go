package driver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const token = "tttttttttttttttttttttttttttttttttttttttt"

func env(name string) (string, bool) {
	values := map[string]string{"LAB_TOKEN": token, "SHORT": strings.Repeat("s", 31), "SPACED": "a b" + token}
	v, ok := values[name]
	return v, ok
}

func doc(t *testing.T, steps []any, mutate func(map[string]any)) []byte {
	t.Helper()
	if steps == nil {
		steps = []any{}
	}
	d := map[string]any{"format": "client-script/1", "servers": map[string]any{"srv": map[string]any{"command": []any{"true"}, "env": map[string]any{}}},
		"request_timeout_ms": 3000, "version_mode": "pin", "steps": steps}
	if mutate != nil {
		mutate(d)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var (
	connect  = map[string]any{"op": "connect", "connection": "a", "server": "srv"}
	roundOne = map[string]any{"op": "call_once", "connection": "a", "tool": "t", "arguments": map[string]any{}, "save_state": "s1"}
)

func with(base map[string]any, changes map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range changes {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

func TestAWholeScriptIsRead(t *testing.T) {
	script, err := Parse(doc(t, []any{connect, roundOne,
		map[string]any{"op": "call_once", "connection": "a", "tool": "t", "arguments": map[string]any{"x": 1},
			"input_responses": map[string]any{"body": map[string]any{"action": "accept"}}, "state": "s1", "state_transform": "tamper", "ts_api": "request"},
		map[string]any{"op": "connect", "connection": "b", "server": "srv"},
		map[string]any{"op": "parallel", "steps": []any{map[string]any{"op": "status", "connection": "a", "operation_id": "o"},
			map[string]any{"op": "list_tools", "connection": "b"}}},
		map[string]any{"op": "close", "connection": "a"}}, nil), env)
	if err != nil {
		t.Fatal(err)
	}
	if *script.RequestTimeoutMs != 3000 || !script.Steps[2].Steps[0].Tamper || !script.Steps[4].Parallel {
		t.Fatalf("read wrongly: %+v", script)
	}
	if got := fmt.Sprintf("%v %v", script.Steps[4].Steps[0].ID, script.Steps[4].Steps[1].ID); got != "4.0 4.1" {
		t.Fatalf("inner ids %s", got)
	}
	if string(script.Steps[2].Steps[0].InputResponses) != `{"body":{"action":"accept"}}` {
		t.Fatalf("input responses %s", script.Steps[2].Steps[0].InputResponses)
	}
}

func TestABadScriptIsRefusedWithOneLine(t *testing.T) {
	cases := []struct {
		text []byte
		line string
	}{
		{[]byte("{"), "script error: not JSON"},
		{[]byte("[]"), "script error: the script must be a JSON object"},
		{doc(t, nil, func(d map[string]any) { d["format"] = "client-script/2" }), `script error: format must be "client-script/1" (got "client-script/2")`},
		{doc(t, nil, func(d map[string]any) { d["extra"] = 1 }), `script error: unknown member "extra"`},
		{doc(t, nil, func(d map[string]any) { d["request_timeout_ms"] = 0 }), "script error: request_timeout_ms must be null or a positive whole number"},
		{doc(t, nil, func(d map[string]any) { d["request_timeout_ms"] = 1.5 }), "script error: request_timeout_ms must be null or a positive whole number"},
		{doc(t, nil, func(d map[string]any) { delete(d, "request_timeout_ms") }), "script error: request_timeout_ms is required"},
		{doc(t, nil, func(d map[string]any) { d["version_mode"] = "latest" }), `script error: version_mode must be one of "pin", "auto", "default"`},
		{doc(t, nil, func(d map[string]any) { d["servers"] = map[string]any{"srv": map[string]any{"command": []any{}}} }), "script error: servers.srv: command must be a non-empty array"},
		{doc(t, nil, func(d map[string]any) {
			d["servers"] = map[string]any{"srv": map[string]any{"command": []any{"x"}, "env": map[string]any{"A": 1}}}
		}), "script error: servers.srv: env.A must be a string"},
		{doc(t, []any{map[string]any{"op": "jump", "connection": "a"}}, nil), `script error: step 0: unknown op "jump"`},
		{doc(t, []any{map[string]any{"connection": "a"}}, nil), "script error: step 0: op is required"},
		{doc(t, []any{with(connect, map[string]any{"server": "nope"})}, nil), `script error: step 0 (connect): unknown server "nope"`},
		{doc(t, []any{map[string]any{"op": "list_tools", "connection": "a"}}, nil), `script error: step 0 (list_tools): connection "a" is used before it is connected`},
		{doc(t, []any{connect, connect}, nil), `script error: step 1 (connect): connection "a" is already connected`},
		{doc(t, []any{connect, map[string]any{"op": "close", "connection": "a"}, map[string]any{"op": "list_tools", "connection": "a"}}, nil),
			`script error: step 2 (list_tools): connection "a" is used before it is connected`},
		{doc(t, []any{connect, with(roundOne, map[string]any{"save_state": ""})}, nil), "script error: step 1 (call_once): save_state must be a non-empty string"},
		{doc(t, []any{connect, with(roundOne, map[string]any{"save_state": nil, "state": "s9"})}, nil), `script error: step 1 (call_once): state "s9" is used before it is saved`},
		{doc(t, []any{connect, with(roundOne, map[string]any{"save_state": nil, "state_transform": "none"})}, nil), "script error: step 1 (call_once): state_transform needs a state"},
		{doc(t, []any{connect, with(roundOne, map[string]any{"ts_api": "fetch"})}, nil), `script error: step 1 (call_once): ts_api must be one of "callTool", "request"`},
		{doc(t, []any{connect, map[string]any{"op": "call", "connection": "a", "tool": "t", "arguments": []any{}}}, nil), "script error: step 1 (call): arguments must be an object"},
		{doc(t, []any{connect, map[string]any{"op": "status", "connection": "a", "operation_id": "o", "tool": "x"}}, nil), `script error: step 1 (status): unknown member "tool"`},
		{doc(t, []any{connect, map[string]any{"op": "parallel", "steps": []any{}}}, nil), "script error: step 1 (parallel): steps must be a non-empty array"},
		{doc(t, []any{connect, map[string]any{"op": "parallel", "steps": []any{map[string]any{"op": "parallel", "steps": []any{}}}}}, nil),
			"script error: step 1.0 (parallel): a parallel step cannot contain another one"},
		{doc(t, []any{connect, map[string]any{"op": "parallel", "steps": []any{map[string]any{"op": "list_tools", "connection": "a"},
			map[string]any{"op": "status", "connection": "a", "operation_id": "o"}}}}, nil),
			`script error: step 1.1 (status): connection "a" is already used by step 1.0 of this parallel step`},
		// A state saved inside a parallel step is not there for its sibling.
		{doc(t, []any{connect, with(connect, map[string]any{"connection": "b"}), map[string]any{"op": "parallel", "steps": []any{roundOne,
			map[string]any{"op": "call_once", "connection": "b", "tool": "t", "arguments": map[string]any{}, "state": "s1"}}}}, nil),
			`script error: step 2.1 (call_once): state "s1" is used before it is saved`},
	}
	for _, c := range cases {
		_, err := Parse(c.text, env)
		refused, ok := err.(*ScriptError)
		if !ok || !strings.HasPrefix(refused.Line, c.line) || strings.Contains(refused.Line, "\n") {
			t.Errorf("%s\n  refused with %v, want %q", c.text, err, c.line)
		}
	}
}

func TestABadHTTPEntryIsRefusedWithoutTheToken(t *testing.T) {
	cases := []struct {
		entry map[string]any
		line  string
	}{
		{map[string]any{"url": "http://example.com/mcp", "bearer_token_env": "LAB_TOKEN"}, "url must name a loopback host (127.0.0.1, localhost or [::1]), not example.com"},
		{map[string]any{"url": "http://127.1:8080/mcp", "bearer_token_env": "LAB_TOKEN"}, "url must name a loopback host"},
		{map[string]any{"url": "https://127.0.0.1:8080/mcp", "bearer_token_env": "LAB_TOKEN"}, "url must be an http:// URL"},
		{map[string]any{"url": "http://user:pw@127.0.0.1:8080/mcp", "bearer_token_env": "LAB_TOKEN"}, "url must not carry user information"},
		{map[string]any{"url": "http://127.0.0.1:0/mcp", "bearer_token_env": "LAB_TOKEN"}, "url has port 0, outside 1..65535"},
		{map[string]any{"url": "http://127.0.0.1:80 80/mcp", "bearer_token_env": "LAB_TOKEN"}, "url is not a URL"},
		{map[string]any{"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "MISSING"}, "bearer_token_env MISSING is not set in the driver's environment"},
		{map[string]any{"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "SHORT"}, "bearer_token_env SHORT holds a token shorter than 32 characters"},
		{map[string]any{"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "SPACED"}, "bearer_token_env SPACED holds a character other than printable ASCII (no spaces)"},
		{map[string]any{"url": "http://127.0.0.1:8080/mcp"}, "bearer_token_env is required"},
		{map[string]any{"url": "http://127.0.0.1:8080/mcp", "bearer_token_env": "LAB_TOKEN", "command": []any{"x"}}, `unknown member "command"`},
	}
	for _, c := range cases {
		_, err := Parse(doc(t, nil, func(d map[string]any) { d["servers"] = map[string]any{"web": c.entry} }), env)
		refused, ok := err.(*ScriptError)
		if !ok || !strings.HasPrefix(refused.Line, "script error: servers.web: "+c.line) {
			t.Errorf("%v refused with %v, want %q", c.entry, err, c.line)
			continue
		}
		if strings.Contains(refused.Line, token) || strings.Contains(refused.Line, "pw") {
			t.Errorf("a refusal repeats a secret: %s", refused.Line)
		}
	}
}

func TestAnHTTPEntryDoesNotPrintItsToken(t *testing.T) {
	script, err := Parse(doc(t, nil, func(d map[string]any) {
		d["servers"] = map[string]any{"web": map[string]any{"url": "http://[::1]:8080/mcp", "bearer_token_env": "LAB_TOKEN"}}
	}), env)
	if err != nil {
		t.Fatal(err)
	}
	server := script.Servers["web"]
	if server.Token() != token {
		t.Fatalf("token handling: %v", server)
	}
	for _, shown := range []string{fmt.Sprint(server), fmt.Sprintf("%+v", server), fmt.Sprintf("%+v", *server), fmt.Sprintf("%#v", *server)} {
		if strings.Contains(shown, token) {
			t.Fatalf("fmt prints the token: %s", shown)
		}
	}
}

func TestTamperChangesTheMiddleCharacter(t *testing.T) {
	if Tamper("xxAxx") != "xxBxx" || Tamper("xxxxx") != "xxAxx" {
		t.Fatal(Tamper("xxAxx"), Tamper("xxxxx"))
	}
}
