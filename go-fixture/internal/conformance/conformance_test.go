package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/httpserve"
)

var key = []byte("0123456789abcdef0123456789abcdef")

func TestAStateOpensOnlyForItsOwnCallPrincipalAndLifetime(t *testing.T) {
	now := int64(1000)
	states := NewStates(key, 60, func() int64 { return now })
	args := map[string]any{"b": int64(1)}
	token, err := states.Seal(toolsCall, requestState, args, "alice", "asked")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := states.Open(token, toolsCall, requestState, map[string]any{"b": int64(1)}, "alice"); err != nil || data != "asked" {
		t.Fatalf("its own call: %v %v", data, err)
	}
	refusals := map[string]func() (any, error){
		"another method":  func() (any, error) { return states.Open(token, promptsGet, requestState, args, "alice") },
		"another fixture": func() (any, error) { return states.Open(token, toolsCall, tamperedState, args, "alice") },
		"other arguments": func() (any, error) {
			return states.Open(token, toolsCall, requestState, map[string]any{"b": int64(2)}, "alice")
		},
		"another principal": func() (any, error) { return states.Open(token, toolsCall, requestState, args, "bob") },
		"another key": func() (any, error) {
			return NewStates([]byte("fedcba9876543210fedcba9876543210"), 60, func() int64 { return now }).Open(token, toolsCall, requestState, args, "alice")
		},
		"a flipped bit":  func() (any, error) { return states.Open(flip(token, 5), toolsCall, requestState, args, "alice") },
		"a cut MAC":      func() (any, error) { return states.Open(token[:len(token)-1], toolsCall, requestState, args, "alice") },
		"padding added":  func() (any, error) { return states.Open(token+"=", toolsCall, requestState, args, "alice") },
		"arguments list": func() (any, error) { return states.Open(token, toolsCall, requestState, []any{}, "alice") },
		"expired": func() (any, error) {
			now += 60
			defer func() { now -= 60 }()
			return states.Open(token, toolsCall, requestState, args, "alice")
		},
	}
	for name, open := range refusals {
		if data, err := open(); err == nil {
			t.Errorf("%s: opened (%v)", name, data)
		}
	}
}

func flip(token string, at int) string {
	b := []byte(token)
	if b[at] == 'A' {
		b[at] = 'B'
	} else {
		b[at] = 'A'
	}
	return string(b)
}

// serve is the profile alone on the real SDK handler and listener, as principal "conformance" (no tokens file).
func serve(t *testing.T) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "go-fixture", Version: "0"}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{"2026-07-28"}, Capabilities: Capabilities(), CompletionHandler: Complete,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	(&Profile{States: NewStates(key, 60, func() int64 { return time.Now().Unix() }), Log: io.Discard}).Register(s)
	running, err := httpserve.Serve(0, httpserve.Options{ReadTimeout: 5 * time.Second, FixedPrincipal: Principal, Server: s,
		Log: io.Discard, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), EventStreams: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { running.Stop(time.Second) })
	return running.URL
}

// call posts one tools/call and returns the JSON-RPC message from the event stream.
func call(t *testing.T, url, tool, capabilities, extra string) map[string]any {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{}%s,"_meta":{`+
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":%s}}}`, tool, extra, capabilities)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	text := string(raw)
	if i := strings.Index(text, "data: "); i >= 0 {
		text = strings.SplitN(text[i+len("data: "):], "\n", 2)[0]
	}
	var msg map[string]any
	if err := json.Unmarshal([]byte(text), &msg); err != nil {
		t.Fatalf("%s: %d %s", tool, resp.StatusCode, raw)
	}
	return msg
}

func TestTheRequestStateFixtureCompletesOnlyWithItsOwnStateAndAnUndeclaredCapabilityIsRefused(t *testing.T) {
	url := serve(t)
	caps := `{"elicitation":{"form":{}},"sampling":{}}`
	first := call(t, url, requestState, caps, "")
	result, _ := first["result"].(map[string]any)
	state, _ := result["requestState"].(string)
	if result["resultType"] != "input_required" || state == "" {
		t.Fatalf("round one: %v", first)
	}
	answers := `,"inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}`
	quoted, _ := json.Marshal(state)
	second := call(t, url, requestState, caps, answers+`,"requestState":`+string(quoted))
	if text := fmt.Sprint(second["result"]); !strings.Contains(text, "state-ok: the requestState verified; ok=true") {
		t.Errorf("continuation: %v", second)
	}
	for name, extra := range map[string]string{"no state": answers, "a tampered state": answers + `,"requestState":` + string(quoted[:len(quoted)-2]) + `x"`} {
		refused := call(t, url, requestState, caps, extra)
		if e, _ := refused["error"].(map[string]any); e == nil || e["message"] != "Invalid or expired requestState" {
			t.Errorf("%s: %v", name, refused)
		}
	}
	missing := call(t, url, missingCapability, `{"elicitation":{}}`, "")
	e, _ := missing["error"].(map[string]any)
	if e == nil || e["code"] != float64(-32021) || !strings.Contains(fmt.Sprint(e["data"]), "sampling") {
		t.Errorf("sampling undeclared: %v", missing)
	}
	if got := call(t, url, missingCapability, caps, ""); fmt.Sprint(got["result"]) == "" || got["error"] != nil {
		t.Errorf("sampling declared: %v", got)
	}
}
