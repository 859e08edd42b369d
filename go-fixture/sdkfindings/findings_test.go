// Package sdkfindings reproduces, in the smallest form, what the official Go SDK v1.8.0 does on its own stdio
// transport, without this fixture's gate and wrappers (docs/findings/go-sdk-*.md). Each test pins the observed
// behaviour: if a new SDK release changes it, the test fails and the finding page needs a look.
package sdkfindings

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// bareServer is the SDK's server restricted to 2026-07-28 with one tool "t": without a state it asks for input,
// with one it answers "done"; with arguments {"fail":true} it returns a plain Go error.
func bareServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "probe", Version: "0"},
		&mcp.ServerOptions{SupportedProtocolVersions: []string{"2026-07-28"}})
	s.AddTool(&mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if strings.Contains(string(req.Params.Arguments), "fail") {
				return nil, errors.New("plain error")
			}
			if req.Params.RequestState == "" {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"body": &mcp.ElicitParams{Message: "body?",
					RequestedSchema: json.RawMessage(`{"type":"object"}`)}}, RequestState: "S1"}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
	return s
}

// session feeds lines to the bare server over the SDK's IOTransport and collects what it writes; it waits
// `quiet` after the last line before ending input (at end of input the SDK drops calls still in flight).
func session(t *testing.T, lines ...string) (replies []string, runErr error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- bareServer().Run(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW})
		outW.Close()
	}()
	collected := make(chan []string, 1)
	go func() {
		var got []string
		s := bufio.NewScanner(outR)
		for s.Scan() {
			got = append(got, s.Text())
		}
		collected <- got
	}()
	for _, l := range lines {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			break // the session already ended
		}
	}
	time.Sleep(300 * time.Millisecond)
	inW.Close()
	select {
	case runErr = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end")
	}
	return <-collected, runErr
}

func list(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list","params":{` + meta + `}}`
}

func TestOneLineThatIsNotJSONEndsTheSession(t *testing.T) {
	replies, err := session(t, "garbage", list("1"))
	if len(replies) != 0 || err == nil {
		t.Fatalf("replies %v, err %v", replies, err)
	}
	t.Logf("Run returned: %v", err)
}

func TestASecondValueOnTheLineEndsTheSession(t *testing.T) {
	replies, err := session(t, list("1")+`{"a":1}`, list("2"))
	if len(replies) != 0 || err == nil || !strings.Contains(err.Error(), "invalid trailing data") {
		t.Fatalf("replies %v, err %v", replies, err)
	}
}

func TestAFractionalIDRunsAsAnInteger(t *testing.T) {
	replies, _ := session(t, list("1.5"))
	if len(replies) != 1 || !strings.HasPrefix(replies[0], `{"jsonrpc":"2.0","id":1,"result"`) {
		t.Fatalf("%v", replies)
	}
}

func TestANullIDIsNeverAnswered(t *testing.T) {
	replies, _ := session(t, list("null"))
	if len(replies) != 0 {
		t.Fatalf("%v", replies)
	}
}

func TestABatchIsServed(t *testing.T) {
	replies, _ := session(t, "["+list("1")+"]")
	if len(replies) != 1 || !strings.HasPrefix(replies[0], `[{"jsonrpc":"2.0","id":1,"result"`) {
		t.Fatalf("%v", replies)
	}
}

func TestWithoutAnEnvelopeVersionTheRequestTakesTheOldPath(t *testing.T) {
	replies, _ := session(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
	)
	if len(replies) != 2 ||
		replies[0] != `{"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"method \"tools/list\" is invalid during session initialization"}}` ||
		!strings.Contains(replies[1], `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("%v", replies)
	}
}

func TestAfterOneEnvelopeRequestAnyRequestRunsWithoutVersionOrResultType(t *testing.T) {
	replies, _ := session(t, list("1"),
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}`)
	if len(replies) != 3 || strings.Contains(replies[1], "resultType") || strings.Contains(replies[2], "error") {
		t.Fatalf("%v", replies)
	}
}

func TestAnInputRequiredResultCarriesContentNull(t *testing.T) {
	replies, _ := session(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"t","arguments":{}}}`)
	if len(replies) != 1 || !strings.Contains(replies[0], `"content":null`) || !strings.Contains(replies[0], `"resultType":"input_required"`) {
		t.Fatalf("%v", replies)
	}
}

func TestAHandlerErrorIsAJSONRPCErrorWithCodeZero(t *testing.T) {
	replies, _ := session(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"t","arguments":{"fail":true}}}`)
	if len(replies) != 1 || replies[0] != `{"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"plain error"}}` {
		t.Fatalf("%v", replies)
	}
}

func TestUnknownInputResponseMembersAreDroppedAndAnUntypedOneRefusesTheCall(t *testing.T) {
	call := func(id, responses string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{` + meta +
			`,"name":"t","arguments":{},"inputResponses":` + responses + `,"requestState":"S1"}}`
	}
	replies, _ := session(t,
		call("1", `{"body":{"action":"accept","content":{"body":"x"},"extra":1}}`),
		call("2", `{"body":{"text":"x"}}`))
	if len(replies) != 2 {
		t.Fatalf("%v", replies)
	}
	byID := map[string]string{}
	for _, r := range replies {
		var m struct{ ID json.RawMessage }
		_ = json.Unmarshal([]byte(r), &m)
		byID[string(m.ID)] = r
	}
	if !strings.Contains(byID["1"], `"text":"done"`) {
		t.Fatalf("an unknown member: %s", byID["1"])
	}
	// The refusal quotes the whole params, the requestState included.
	if !strings.Contains(byID["2"], `"code":-32602`) || !strings.Contains(byID["2"], `cannot determine InputResponse type`) ||
		!strings.Contains(byID["2"], `requestState`) {
		t.Fatalf("an untyped response: %s", byID["2"])
	}
}

func TestInputRequestsGoToAClientThatDeclaredNoElicitation(t *testing.T) {
	replies, _ := session(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"t","arguments":{}}}`)
	if len(replies) != 1 || !strings.Contains(replies[0], `"elicitation/create"`) {
		t.Fatalf("%v", replies)
	}
}

// The envelope is decoded into a struct: a repeated member whose first value has another type fails the decode of
// the stream, and the session ends (found by lab faults' full wire fuzz against the fixture before its gate
// rewrote such lines).
func TestARepeatedMemberStartingWithAnotherTypeEndsTheSession(t *testing.T) {
	replies, err := session(t, `{"jsonrpc":[],`+list("1")[1:], list("2"))
	if len(replies) != 0 || err == nil || !strings.Contains(err.Error(), "cannot unmarshal") {
		t.Fatalf("replies %v, err %v", replies, err)
	}
}
