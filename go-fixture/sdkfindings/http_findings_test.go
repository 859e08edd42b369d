package sdkfindings

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bareHTTP is the SDK's own Streamable HTTP handler (stateless, JSON replies) around bareServer, behind the SDK's
// own bearer middleware, on a real loopback listener (httptest): nothing of the fixture.
func bareHTTP(t *testing.T, stateless bool) *httptest.Server {
	t.Helper()
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return bareServer() },
		&mcp.StreamableHTTPOptions{Stateless: stateless, JSONResponse: true})
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "good-token-0123456789abcdef0123456789" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "alice", Expiration: time.Now().Add(time.Hour)}, nil
	}
	s := httptest.NewServer(auth.RequireBearerToken(verify, nil)(handler))
	t.Cleanup(s.Close)
	return s
}

// request is a tools/call POST of body with a valid client's headers, changed by headers ("" deletes one).
func request(url string, headers map[string]string, body string) *http.Request {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "t"} {
		req.Header.Set(k, v)
	}
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	return req
}

func post(t *testing.T, url string, headers map[string]string, body string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(request(url, headers, body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

const httpCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{},` + meta + `}}`

// docs/findings/go-sdk-http-embedding.md, 1: the SDK's bearer middleware answers 401 without a WWW-Authenticate
// challenge unless it was given a resource-metadata URL or scopes (RFC 6750 §3 asks for one on every 401).
func TestTheBearerMiddlewareAnswers401WithoutAChallenge(t *testing.T) {
	s := bareHTTP(t, true)
	for _, authorization := range []string{"", "Bearer wrong-token-0123456789abcdef012345"} {
		status, header, body := post(t, s.URL, map[string]string{"Authorization": authorization}, httpCall)
		if status != 401 || header.Get("WWW-Authenticate") != "" {
			t.Errorf("%q: got %d, challenge %q, body %q", authorization, status, header.Get("WWW-Authenticate"), body)
		}
	}
	// And a TokenInfo without an expiry is refused unless AllowMissingExpiration is set.
	h := auth.RequireBearerToken(func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{UserID: "alice"}, nil
	}, nil)(http.NotFoundHandler())
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Header.Set("Authorization", "Bearer x")
	h.ServeHTTP(rec, req)
	if rec.Code != 401 || strings.TrimSpace(rec.Body.String()) != "token missing expiration" {
		t.Errorf("no expiry: %d %q", rec.Code, rec.Body.String())
	}
}

// 2: a foreign Origin is served: the handler's DNS-rebinding protection looks at Host only (and only when the
// listener is loopback); Origin is checked only with the deprecated CrossOriginProtection option or a wrapper.
func TestAForeignOriginIsServedByTheSDKsHandler(t *testing.T) {
	s := bareHTTP(t, true)
	status, _, body := post(t, s.URL, map[string]string{"Authorization": "Bearer good-token-0123456789abcdef0123456789",
		"Origin": "http://evil.example"}, httpCall)
	if status != 200 || !strings.Contains(body, `"resultType":"input_required"`) {
		t.Errorf("got %d %s", status, body)
	}
	req := request(s.URL, map[string]string{"Authorization": "Bearer good-token-0123456789abcdef0123456789"}, httpCall)
	req.Host = "evil.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("a foreign Host: %d", resp.StatusCode)
	}
}

// 3: a JSON-only Accept is refused with 400 even though the handler answers JSON (JSONResponse); and a 2026-07-28
// request to a stateful handler (the default) is refused -32022 naming only the legacy versions.
func TestAcceptMustNameBothTypesAndTheStatefulHandlerRefuses20260728(t *testing.T) {
	good := map[string]string{"Authorization": "Bearer good-token-0123456789abcdef0123456789"}
	s := bareHTTP(t, true)
	withJSONOnly := map[string]string{"Authorization": good["Authorization"], "Accept": "application/json"}
	if status, _, body := post(t, s.URL, withJSONOnly, httpCall); status != 400 ||
		strings.TrimSpace(body) != "Accept must contain both 'application/json' and 'text/event-stream'" {
		t.Errorf("JSON-only Accept: %d %q", status, body)
	}
	stateful := bareHTTP(t, false)
	status, _, body := post(t, stateful.URL, good, httpCall)
	if status != 400 || !strings.Contains(body, `"code":-32022`) || !strings.Contains(body, `is not supported by this server`) {
		t.Errorf("stateful: %d %s", status, body)
	}
	if !strings.Contains(body, `"supported":[]`) {
		t.Errorf("a server restricted to 2026-07-28 names no version it supports: %s", body)
	}
}

// 6: over HTTP too, a request id 1.5 is read as a float and truncated: the call runs, answered as id 1.
func TestAFractionalIdRunsAsItsTruncationOverHTTP(t *testing.T) {
	s := bareHTTP(t, true)
	status, _, body := post(t, s.URL, map[string]string{"Authorization": "Bearer good-token-0123456789abcdef0123456789"},
		strings.Replace(httpCall, `"id":1`, `"id":1.5`, 1))
	if status != 200 || !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":1,"result":`) {
		t.Errorf("got %d %s", status, body)
	}
}

// docs/findings/go-sdk-http-embedding.md, 8: the SDK compares only the first of repeated Mcp-Method / Mcp-Name
// headers with the body (Header.Get), so a second, contradicting copy is ignored and the call runs.
func TestARepeatedRoutingHeaderIsReadAsItsFirstCopy(t *testing.T) {
	s := bareHTTP(t, true)
	for name, second := range map[string]string{"Mcp-Method": "tools/list", "Mcp-Name": "other"} {
		req := request(s.URL, map[string]string{"Authorization": "Bearer good-token-0123456789abcdef0123456789"}, httpCall)
		req.Header.Add(name, second)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), `"result":`) {
			t.Errorf("%s then %q: got %d %s", name, second, resp.StatusCode, b)
		}
	}
}

// docs/findings/go-sdk-http-embedding.md, 9: net/http's default head limit is 1 MiB plus 4 KiB of slack, so the SDK's
// handler on a plain http.Server serves a request carrying a 1 MiB header.
func TestNetHTTPsDefaultHeadLimitLetsA1MiBHeaderThrough(t *testing.T) {
	s := bareHTTP(t, true)
	status, _, body := post(t, s.URL, map[string]string{"Authorization": "Bearer good-token-0123456789abcdef0123456789",
		"X-Padding": strings.Repeat("p", 1<<20)}, httpCall)
	if status != 200 || !strings.Contains(body, `"result":`) {
		t.Errorf("got %d %.200s", status, body)
	}
}

// docs/findings/go-sdk-http-embedding.md, 10: a net/http handler that returns without writing is answered 200 with
// an empty body, so a handler that gives up on a body it cannot read (the read timeout, a bad chunk size) has told
// the client "success" unless it writes a status itself.
func TestAHandlerThatWritesNothingIsAnEmpty200(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(s.Close)
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || len(b) != 0 {
		t.Errorf("got %d %q", resp.StatusCode, b)
	}
}
