package httpserve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/bridge"
	"lab.continuationreplay/gofixture/internal/config"
	"lab.continuationreplay/gofixture/internal/repo"
	"lab.continuationreplay/gofixture/internal/requeststate"
	"lab.continuationreplay/gofixture/internal/server"
)

const (
	aliceToken = "alice-token-0123456789abcdef0123456789abcdef"
	bobToken   = "bob-token-0123456789abcdef0123456789abcdef00"
	envelope   = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
)

func writeFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tokens.json")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTheTokensFileIsCheckedAndItsMessagesNeverNameAToken(t *testing.T) {
	shape := "WIRE_BEARER_TOKENS_FILE must name a file holding a JSON object of principal to token"
	short := "short-token-of-31-characters-xx"
	cases := []struct{ file, message string }{
		{`["alice"]`, shape},
		{`{"alice":"` + aliceToken + `"} {}`, shape},
		{`{"alice":`, shape},
		{`{}`, "WIRE_BEARER_TOKENS_FILE names no principal"},
		{`{"":"` + aliceToken + `"}`, "WIRE_BEARER_TOKENS_FILE has an empty principal"},
		{`{"alice":"` + short + `"}`, `WIRE_BEARER_TOKENS_FILE: the token of principal "alice" must be a bearer token of at least 32 characters`},
		{`{"alice":"` + aliceToken + ` x"}`, `WIRE_BEARER_TOKENS_FILE: the token of principal "alice" must be a bearer token of at least 32 characters`},
		{`{"alice":42}`, `WIRE_BEARER_TOKENS_FILE: the token of principal "alice" must be a bearer token of at least 32 characters`},
		{`{"alice":"` + aliceToken + `","bob":"` + aliceToken + `"}`, `WIRE_BEARER_TOKENS_FILE: principals "alice" and "bob" share a token`},
	}
	for _, c := range cases {
		_, err := ReadBearerTokens(writeFile(t, c.file))
		if err == nil || err.Error() != c.message {
			t.Errorf("%s: got %v, want %q", c.file, err, c.message)
		}
		if err != nil && (strings.Contains(err.Error(), aliceToken) || strings.Contains(err.Error(), short)) {
			t.Errorf("%s: the message names a token: %v", c.file, err)
		}
	}
	if _, err := ReadBearerTokens(filepath.Join(t.TempDir(), "absent.json")); err == nil || err.Error() != shape {
		t.Errorf("a missing file: %v", err)
	}
	tokens, err := ReadBearerTokens(writeFile(t, `{"alice":"`+aliceToken+`","bob":"`+bobToken+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	for header, want := range map[string]string{
		"Bearer " + aliceToken: "alice", "bearer  " + bobToken + " ": "bob", "BEARER " + aliceToken: "alice",
		"Bearer " + aliceToken + "x": "", "Basic " + aliceToken: "", "Bearer": "", "": "", aliceToken: "",
		"Bearer " + aliceToken + " extra": "",
	} {
		got, ok := tokens.PrincipalFor(header)
		if got != want || ok != (want != "") {
			t.Errorf("%q: got %q %v, want %q", header, got, ok, want)
		}
	}
}

func TestLoopbackNames(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:1": true, "LOCALHOST": true, "[::1]:9": true, "[::1]": true, "127.0.0.1": true,
		"evil.example": false, "127.0.0.2:80": false, "localhost.evil.example": false, "": false, "0.0.0.0:80": false,
	} {
		if IsLoopbackHost(host) != want {
			t.Errorf("%q: want %v", host, want)
		}
	}
}

// served is the fixture's HTTP mode in this process: the real handler, the real SDK, the real bridge per principal
// and a SQLite file, on a real loopback listener.
type served struct {
	url     string
	host    string // the listener's address, as a Host header names it
	running *Running
	bridges *PrincipalBridges
	stderr  *strings.Builder
}

func serve(t *testing.T) *served {
	t.Helper()
	return serveWithReadTimeout(t, 2*time.Second)
}

func serveWithReadTimeout(t *testing.T, readTimeout time.Duration) *served {
	t.Helper()
	return serveTools(t, readTimeout, (*server.Tools).Register)
}

// serveTools serves the tools register adds: the guarded ones, or the unguarded control's.
func serveTools(t *testing.T, readTimeout time.Duration, register func(*server.Tools, *mcp.Server) error) *served {
	t.Helper()
	root, err := repo.BuiltBridge()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		config.ServerDB: filepath.Join(t.TempDir(), "store.sqlite3"), config.BackendID: "sqlite:guarded-matrix",
		config.ClockEpoch: "1790035200", config.AuthorityTTL: "300", config.ReplayRetentionTTL: "360",
		config.RequestStateTTL: "600", config.StateKeyHex: strings.Repeat("8c", 32), config.FingerprintKeyHex: strings.Repeat("5a", 32),
		config.BearerTokensFile: writeFile(t, `{"alice":"`+aliceToken+`","bob":"`+bobToken+`"}`),
	}
	lookup := func(name string) (string, bool) {
		if v, ok := env[name]; ok {
			return v, true
		}
		return os.LookupEnv(name)
	}
	cfg, httpCfg, err := config.ReadHTTP(lookup, false)
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := ReadBearerTokens(httpCfg.TokensFile)
	if err != nil {
		t.Fatal(err)
	}
	codec, err := requeststate.NewCodec(cfg.StateKey, cfg.RequestStateTTL, func() int64 { return cfg.ClockEpoch })
	if err != nil {
		t.Fatal(err)
	}
	stderr := &strings.Builder{}
	bridges := NewPrincipalBridges(bridge.DefaultCommand(root, os.Getenv), lookup, io.Discard)
	s := mcp.NewServer(&mcp.Implementation{Name: server.Name, Version: server.Version}, &mcp.ServerOptions{
		SupportedProtocolVersions: []string{"2026-07-28"}, Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err := register(&server.Tools{Config: cfg, Codec: codec, Bridges: bridges.For, Log: stderr, Exit: func(int) { t.Error("exit") }}, s); err != nil {
		t.Fatal(err)
	}
	running, err := Serve(0, Options{ReadTimeout: readTimeout, Tokens: tokens, Server: s, Log: stderr,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { running.Stop(time.Second); bridges.Close(3 * time.Second) })
	return &served{url: running.URL, host: strings.TrimSuffix(strings.TrimPrefix(running.URL, "http://"), Endpoint),
		bridges: bridges, stderr: stderr, running: running}
}

type reply struct {
	status int
	header http.Header
	body   string
}

// exchange is one raw HTTP/1.1 request on its own connection, so every header (Host included) is as written.
func exchange(t *testing.T, url, head, body string) reply {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	if !strings.Contains(head, "Content-Length") && !strings.Contains(head, "Transfer-Encoding") {
		head += fmt.Sprintf("Content-Length: %d\r\n", len(body))
	}
	if _, err := io.WriteString(conn, head+"Connection: close\r\n\r\n"+body); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

// expect is one refusal (or answer) as the test wants it: the status and the whole body.
func expect(t *testing.T, name string, r reply, code int, body string) {
	t.Helper()
	if r.status != code || r.body != body {
		t.Errorf("%s: got %d %q, want %d %q", name, r.status, r.body, code, body)
	}
}

func headers(path, host, token, tool string) string {
	h := "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n"
	if tool != "" {
		h += "Mcp-Name: " + tool + "\r\n"
	}
	if token != "" {
		h += "Authorization: Bearer " + token + "\r\n"
	}
	return h
}

func call(id int, tool, arguments, extra string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s%s,%s}}`, id, tool, arguments, extra, envelope)
}

func TestEveryRefusalComesBeforeTheSDKInTheContractsOrder(t *testing.T) {
	s := serve(t)
	host := s.host
	status := call(1, server.StatusTool, `{"operation_id":"x"}`, "")
	forbidden := "forbidden: Host and Origin must be this loopback server\n"
	// A foreign Host is 403 before anything else, even on another path and without a token.
	expect(t, "foreign Host", exchange(t, s.url, headers("/nope", "evil.example", "", ""), status), 403, forbidden)
	expect(t, "foreign Origin", exchange(t, s.url, headers("/mcp", host, aliceToken, server.StatusTool)+"Origin: http://evil.example\r\n", status), 403, forbidden)
	expect(t, "two Origins", exchange(t, s.url, headers("/mcp", host, aliceToken, server.StatusTool)+
		"Origin: http://localhost\r\nOrigin: http://evil.example\r\n", status), 403, forbidden)
	ok := exchange(t, s.url, headers("/mcp", "localhost:1", aliceToken, server.StatusTool)+"Origin: http://127.0.0.1:9\r\n", status)
	if ok.status != 200 || !strings.Contains(ok.body, `"principal":"alice"`) {
		t.Errorf("a loopback Host and Origin: %d %s", ok.status, ok.body)
	}
	expect(t, "another path", exchange(t, s.url, headers("/nope", host, "", ""), status), 404, "not found\n")
	noToken := exchange(t, s.url, headers("/mcp", host, "", server.StatusTool), status)
	expect(t, "no token", noToken, 401, "unauthorized\n")
	if got := noToken.header.Get("WWW-Authenticate"); got != "Bearer" {
		t.Errorf("no token: challenge %q", got)
	}
	unknown := exchange(t, s.url, headers("/mcp", host, aliceToken+"x", server.StatusTool), status)
	expect(t, "unknown token", unknown, 401, "unauthorized\n")
	if got := unknown.header.Get("WWW-Authenticate"); got != `Bearer error="invalid_token"` {
		t.Errorf("unknown token: challenge %q", got)
	}
	// 401 comes before the size: a large body without a token learns nothing about the limit.
	expect(t, "no token, large body", exchange(t, s.url, headers("/mcp", host, "", server.StatusTool)+"Content-Length: 5000000\r\n", ""), 401, "unauthorized\n")
	expect(t, "declared too large", exchange(t, s.url, headers("/mcp", host, aliceToken, server.StatusTool)+"Content-Length: 4194305\r\n", ""),
		413, "request body over 4 MiB\n")
	big := strings.Repeat(" ", MaxBodyBytes+1)
	chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(big), big)
	expect(t, "chunked too large", exchange(t, s.url, headers("/mcp", host, aliceToken, server.StatusTool)+"Transfer-Encoding: chunked\r\n", chunked),
		413, "request body over 4 MiB\n")
	h := headers("/mcp", host, aliceToken, server.StatusTool)
	expect(t, "not UTF-8", exchange(t, s.url, h, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"x\":\"\xff\"}}"), 400,
		`{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`)
	expect(t, "two values", exchange(t, s.url, h, status+status), 400, `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`)
	expect(t, "empty", exchange(t, s.url, h, ""), 400, `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`)
	expect(t, "batch", exchange(t, s.url, h, "["+status+"]"), 400, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}`)
	expect(t, "no jsonrpc", exchange(t, s.url, h, `{"id":5,"method":"tools/call"}`), 400, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request"}}`)
	expect(t, "last jsonrpc counts", exchange(t, s.url, h, `{"jsonrpc":"2.0","jsonrpc":"1.0","id":"a","method":"x"}`), 400,
		`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request"}}`)
	expect(t, "unsafe id", exchange(t, s.url, h, `{"id":9007199254740993}`), 400, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}`)
	// The fixture's own rule: the SDK would run id 1.5 as id 1.
	for _, id := range []string{"1.5", "1e0", "null", "9007199254740992", "true", "{}"} {
		expect(t, "id "+id, exchange(t, s.url, h, strings.Replace(status, `"id":1`, `"id":`+id, 1)), 400,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}`)
	}
	if r := exchange(t, s.url, h, strings.Replace(status, `"id":1`, `"id":"s-1"`, 1)); r.status != 200 || !strings.Contains(r.body, `"id":"s-1"`) {
		t.Errorf("a string id: %d %s", r.status, r.body)
	}
	if s.bridges.clients["bob"] != nil {
		t.Error("bob never called, yet has a bridge")
	}
	if strings.Contains(s.stderr.String(), aliceToken) {
		t.Error("a token reached the log")
	}
}

func TestTheInFlightLimitAnswers503(t *testing.T) {
	// A long read timeout: the held requests must outlive however long a loaded machine takes to start 64 handlers
	// (CI once needed more than 1.7 s, when the timeout here was 2 s).
	s := serveWithReadTimeout(t, 60*time.Second)
	addr := s.host
	// 64 requests whose bodies never come hold every slot until they are closed below.
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	hold := func() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		io.WriteString(c, headers("/mcp", addr, aliceToken, server.StatusTool)+"Content-Length: 10\r\n\r\n{")
	}
	for i := 0; i < MaxInFlight; i++ {
		hold()
	}
	// Every slot must be held before the limit is tested. On loaded machines this test twice saw no 503 (once
	// within 1.7 s, once within 30 s), so a held request had not reached its handler; the kernel and net/http
	// deliver it, not the fixture. One still missing after 10 s is logged and replaced, so the law below is always
	// tested on 64 in flight.
	for extra := 0; s.running.InFlight() < MaxInFlight; extra++ {
		deadline := time.Now().Add(10 * time.Second)
		for s.running.InFlight() < MaxInFlight && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := s.running.InFlight(); n < MaxInFlight {
			if extra == 8 {
				t.Fatalf("only %d of %d held requests reached the handler", n, len(held))
			}
			t.Logf("%d of %d held requests in their handlers after 10 s; one more is sent", n, len(held))
			hold()
		}
	}
	r := exchange(t, s.url, headers("/mcp", addr, aliceToken, server.StatusTool), "{}")
	if r.status != 503 || r.body != "too many requests in flight\n" || r.header.Get("Retry-After") != "1" {
		t.Fatalf("got %d %v %q", r.status, r.header, r.body)
	}
	if n := s.running.InFlight(); n != MaxInFlight {
		t.Fatalf("a refused request kept its slot: %d in flight", n)
	}
	for _, c := range held {
		c.Close()
	}
	held = nil
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if r = exchange(t, s.url, headers("/mcp", addr, aliceToken, server.StatusTool), `{"id":1}`); r.status == 400 {
			return // the slots are free again
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the slots were not given back: %d %q", r.status, r.body)
}

func TestAStateIsBoundToThePrincipalOfItsBearerTokenAndEachPrincipalHasItsBridge(t *testing.T) {
	s := serve(t)
	host := s.host
	args := `{"operation_id":"op-1","title":"T"}`
	first := exchange(t, s.url, headers("/mcp", host, aliceToken, server.GuardedTool), call(1, server.GuardedTool, args, ""))
	var round struct {
		Result struct {
			ResultType   string `json:"resultType"`
			RequestState string `json:"requestState"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(first.body), &round); err != nil || round.Result.ResultType != "input_required" {
		t.Fatalf("first round: %d %s", first.status, first.body)
	}
	state, _ := json.Marshal(round.Result.RequestState)
	continuation := call(2, server.GuardedTool, args, `,"inputResponses":{"body":{"action":"accept","content":{"body":"b"}}},"requestState":`+string(state))
	stolen := exchange(t, s.url, headers("/mcp", host, bobToken, server.GuardedTool), continuation)
	want := `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}}`
	if stolen.status != 400 || stolen.body != want {
		t.Errorf("alice's state presented by bob: %d %s", stolen.status, stolen.body)
	}
	if s.bridges.clients["bob"] != nil {
		t.Error("a refused state reached a bridge")
	}
	applied := exchange(t, s.url, headers("/mcp", host, aliceToken, server.GuardedTool), continuation)
	if applied.status != 200 || !strings.Contains(applied.body, `"replayed":false,"state":"applied"`) {
		t.Fatalf("alice's continuation: %d %s", applied.status, applied.body)
	}
	statusCall := call(3, server.StatusTool, `{"operation_id":"op-1"}`, "")
	asBob := exchange(t, s.url, headers("/mcp", host, bobToken, server.StatusTool), statusCall)
	asAlice := exchange(t, s.url, headers("/mcp", host, aliceToken, server.StatusTool), statusCall)
	if strings.Contains(asBob.body, `"applied"`) || !strings.Contains(asAlice.body, `\"state\":\"applied\"`) {
		t.Errorf("status as bob %s, as alice %s", asBob.body, asAlice.body)
	}
	if len(s.bridges.clients) != 2 {
		t.Errorf("want one bridge each for alice and bob, got %d", len(s.bridges.clients))
	}
}

func TestTheUnguardedControlBindsItsStateToTheTitleAndPrincipalAndWritesOnEveryContinuation(t *testing.T) {
	s := serveTools(t, 2*time.Second, (*server.Tools).RegisterUnguarded)
	tool := server.UnguardedTool
	first := exchange(t, s.url, headers("/mcp", s.host, aliceToken, tool), call(1, tool, `{"title":"T"}`, ""))
	var round struct {
		Result struct {
			ResultType   string `json:"resultType"`
			RequestState string `json:"requestState"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(first.body), &round); err != nil || round.Result.ResultType != "input_required" {
		t.Fatalf("first round: %d %s", first.status, first.body)
	}
	state, _ := json.Marshal(round.Result.RequestState)
	more := `,"inputResponses":{"body":{"action":"accept","content":{"body":"b"}}},"requestState":` + string(state)
	refused := `{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}`
	if r := exchange(t, s.url, headers("/mcp", s.host, bobToken, tool), call(2, tool, `{"title":"T"}`, more)); !strings.Contains(r.body, refused) {
		t.Errorf("alice's state presented by bob: %d %s", r.status, r.body)
	}
	if r := exchange(t, s.url, headers("/mcp", s.host, aliceToken, tool), call(3, tool, `{"title":"U"}`, more)); !strings.Contains(r.body, refused) {
		t.Errorf("the state with another title: %d %s", r.status, r.body)
	}
	// The same continuation twice: two issues, the duplicate the guard exists to prevent.
	for id := 1; id <= 2; id++ {
		r := exchange(t, s.url, headers("/mcp", s.host, aliceToken, tool), call(3+id, tool, `{"title":"T"}`, more))
		if want := fmt.Sprintf(`{"issueId":%d,"result":"created %d"}`, id, id); r.status != 200 || !strings.Contains(r.body, `"structuredContent":`+want) {
			t.Errorf("continuation %d: %d %s", id, r.status, r.body)
		}
	}
}

// Each of these got 200 with an empty body or ran (found by `./lab faults --transport http --sdk go`, http-fuzz and
// token-attacks): a body that never arrives whole, a head over the limit, a repeated routing header, a requestState
// that is not a string. Every one must be refused, and none may reach a bridge.
func TestIncompleteBodiesLargeHeadsRepeatedRoutingHeadersAndNonStringStatesAreRefusedWithoutEffect(t *testing.T) {
	s := serve(t)
	host := s.host
	h := headers("/mcp", host, aliceToken, server.GuardedTool)
	body := call(1, server.GuardedTool, `{"operation_id":"op-1","title":"T"}`, "")
	chunkedHead := h + "Transfer-Encoding: chunked\r\n"
	whole := fmt.Sprintf("%x\r\n%s\r\n", len(body), body)
	timedOut := "request body not received within the read timeout\n"
	unreadable := "request body could not be read\n"
	started := time.Now()
	expect(t, "no last chunk", exchange(t, s.url, chunkedHead, whole), 408, timedOut)
	if waited := time.Since(started); waited < 1500*time.Millisecond {
		t.Errorf("answered after %v, before the read timeout", waited)
	}
	expect(t, "cut inside a chunk", exchange(t, s.url, chunkedHead, whole[:len(whole)/2]), 408, timedOut)
	expect(t, "declared 7 more", exchange(t, s.url, h+fmt.Sprintf("Content-Length: %d\r\n", len(body)+7), body), 408, timedOut)
	expect(t, "size 'zz'", exchange(t, s.url, chunkedHead, "zz\r\n"+body+"\r\n0\r\n\r\n"), 400, unreadable)
	expect(t, "size beyond 2^64", exchange(t, s.url, chunkedHead, "1ffffffffffffffff\r\n"+body+"\r\n0\r\n\r\n"), 400, unreadable)
	expect(t, "size smaller than the chunk", exchange(t, s.url, chunkedHead, fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(body)-3, body)), 400, unreadable)

	tooLarge := "431 Request Header Fields Too Large"
	if r := exchange(t, s.url, h+"X-Padding: "+strings.Repeat("p", 64<<10)+"\r\n", body); r.status != 431 || r.body != tooLarge {
		t.Errorf("a 64 KiB header: %d %q", r.status, r.body)
	}
	var many strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&many, "X-Many-%d: v\r\n", i)
	}
	if r := exchange(t, s.url, h+many.String(), body); r.status != 431 || r.body != tooLarge {
		t.Errorf("2000 headers: %d %q", r.status, r.body)
	}

	for _, repeated := range []string{"Mcp-Method: tools/list", "Mcp-Name: " + server.StatusTool, "MCP-Protocol-Version: 2026-07-28"} {
		name := strings.SplitN(repeated, ":", 2)[0]
		if name == "MCP-Protocol-Version" {
			name = "Mcp-Protocol-Version"
		}
		expect(t, "repeated "+name, exchange(t, s.url, h+repeated+"\r\n", body), 400,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"repeated `+name+` header"}}`)
	}

	refusal := `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}}`
	for _, state := range []string{"42", `{"a":1}`, `["v1"]`, "true", "null"} {
		expect(t, "requestState "+state, exchange(t, s.url, h, call(1, server.GuardedTool, `{"operation_id":"op-1","title":"T"}`,
			`,"inputResponses":{"body":{"action":"accept","content":{"body":"b"}}},"requestState":`+state)), 400, refusal)
	}

	if len(s.bridges.clients) != 0 {
		t.Errorf("a refused request reached a bridge: %v", s.bridges.clients)
	}
	// Still serving, and the same call whole runs.
	if r := exchange(t, s.url, h, body); r.status != 200 || !strings.Contains(r.body, `"resultType":"input_required"`) {
		t.Errorf("a whole request afterwards: %d %s", r.status, r.body)
	}
}

// A body with a repeated member whose first value has another type is answered as the gate read it (the last
// value); the SDK alone answers it 400 "malformed payload", where the other servers run it.
func TestARepeatedMemberIsAnsweredAsTheGateReadIt(t *testing.T) {
	s := serve(t)
	status := func(id int, before string) string {
		return fmt.Sprintf(`{%s"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"operation_id":"none"},%s}}`,
			before, id, server.StatusTool, envelope)
	}
	for id, before := range map[int]string{41: `"jsonrpc":[],`, 42: `"jsonrpc":true,`, 43: `"id":{},`, 44: `"params":7,`} {
		r := exchange(t, s.url, headers("/mcp", s.host, aliceToken, server.StatusTool), status(id, before))
		if r.status != 200 || !strings.HasPrefix(r.body, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":`, id)) ||
			!strings.Contains(r.body, `\"state\":\"unknown\"`) {
			t.Errorf("%s: %d %s", before, r.status, r.body)
		}
	}
}
