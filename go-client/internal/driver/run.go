package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	statusTool    = "get_operation_status"
	pinnedVersion = "2026-07-28"
	clientName    = "continuation-replay-go-client"
	clientVersion = "0.1.0"
)

// How each op reaches the SDK, as the record's "api" names it.
const (
	apiConnect     = "mcp.NewClient(.., &ClientOptions{ElicitationHandler}) + &CommandTransport{exec.Command(..)}, client.Connect(ctx, transport, opts)"
	apiConnectHTTP = "mcp.NewClient(.., &ClientOptions{ElicitationHandler}) + &StreamableClientTransport{Endpoint, HTTPClient with a bearer RoundTripper}, client.Connect(ctx, transport, opts)"
	apiManual      = " (ClientOptions.MultiRoundTrip.Disabled: this connection plays call_once)"
	apiListTools   = "session.ListTools(ctx, nil)"
	apiCall        = "session.CallTool(ctx, &CallToolParams{Name, Arguments})"
	apiCallOnce    = "session.CallTool(ctx, &CallToolParams{Name, Arguments, InputResponses, RequestState}) on a client with MultiRoundTrip disabled"
	apiClose       = "session.Close()"
)

// Thrown is a record's "threw".
type Thrown struct {
	Type    string `json:"type"`
	Code    any    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data"`
	Cause   any    `json:"cause"`
}

// Record is one client-record/1 line. Transport is a connect step's only.
type Record struct {
	Format     string         `json:"format"`
	Client     string         `json:"client"`
	SdkVersion string         `json:"sdk_version"`
	Step       any            `json:"step"`
	Op         string         `json:"op"`
	Connection string         `json:"connection"`
	Transport  string         `json:"transport,omitempty"`
	API        any            `json:"api"`
	Sent       map[string]any `json:"sent"`
	Outcome    string         `json:"outcome"`
	Result     map[string]any `json:"result"`
	Threw      *Thrown        `json:"threw"`
	SavedState any            `json:"saved_state"`
	StartedMs  int64          `json:"started_ms"`
	ElapsedMs  int64          `json:"elapsed_ms"`
}

type reply struct {
	outcome      string
	result       map[string]any
	threw        *Thrown
	savedState   string
	requestState string
}

// connection is one script connection: a client (its own, since the Go SDK's automatic multi-round-trip handling is
// a client-wide option) and the session it connected.
type connection struct {
	name    string
	manual  bool
	session *mcp.ClientSession
	mu      sync.Mutex
	answer  map[string]any
}

func (c *connection) setAnswer(answer map[string]any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answer = answer
}

func (c *connection) elicit(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answer == nil {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	return &mcp.ElicitResult{Action: "accept", Content: c.answer}, nil
}

// Run plays a checked script.
type Run struct {
	script      *Script
	records     *os.File
	sdkVersion  string
	started     time.Time
	writeMu     sync.Mutex
	stateMu     sync.Mutex
	connMu      sync.Mutex
	connections map[string]*connection
	all         []*connection
	states      map[string]string
	// manual names the connections that play a call_once step: the Go SDK offers the manual round only on a client
	// whose automatic multi-round-trip middleware is disabled (ClientOptions.MultiRoundTrip), for all of its calls.
	manual map[string]bool
}

// NewRun prepares a run writing to records.
func NewRun(script *Script, records *os.File, sdkVersion string, started time.Time) *Run {
	r := &Run{script: script, records: records, sdkVersion: sdkVersion, started: started,
		connections: map[string]*connection{}, states: map[string]string{}, manual: map[string]bool{}}
	for _, top := range script.Steps {
		for _, step := range top.Steps {
			if step.Op == "call_once" {
				r.manual[step.Connection] = true
			}
		}
	}
	return r
}

// Play runs every step; an SDK failure is a step's record, never the run's end.
func (r *Run) Play() error {
	defer func() {
		for _, c := range r.all {
			if c.session != nil {
				_ = c.session.Close()
			}
		}
	}()
	for _, top := range r.script.Steps {
		if !top.Parallel {
			if err := r.inner(top.Steps[0]); err != nil {
				return err
			}
			continue
		}
		// Every goroutine waits on the barrier, which opens once all have started.
		barrier := make(chan struct{})
		errs := make([]error, len(top.Steps))
		var group sync.WaitGroup
		for i, step := range top.Steps {
			group.Add(1)
			go func() {
				defer group.Done()
				<-barrier
				errs[i] = r.inner(step)
			}()
		}
		close(barrier)
		group.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
	return nil
}

func (r *Run) ctx() (context.Context, context.CancelFunc) {
	if r.script.RequestTimeoutMs == nil {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeout(context.Background(), time.Duration(*r.script.RequestTimeoutMs)*time.Millisecond)
}

func (r *Run) conn(name string) *connection {
	r.connMu.Lock()
	defer r.connMu.Unlock()
	return r.connections[name]
}

func (r *Run) inner(step *Step) error {
	switch step.Op {
	case "connect":
		return r.connect(step)
	case "list_tools":
		c := r.conn(step.Connection)
		r.timed(step, apiListTools, nil, "", func() (reply, error) {
			if err := runnable(c); err != nil {
				return reply{}, err
			}
			ctx, cancel := r.ctx()
			defer cancel()
			listed, err := c.session.ListTools(ctx, nil)
			if err != nil {
				return reply{}, err
			}
			return reply{outcome: "listed", result: map[string]any{"tools": asJSON(listed.Tools)}}, nil
		})
	case "close":
		c := r.conn(step.Connection)
		r.timed(step, apiClose, nil, "", func() (reply, error) {
			if err := runnable(c); err != nil {
				return reply{}, err
			}
			session := c.session
			c.session = nil
			return reply{outcome: "closed"}, session.Close()
		})
	case "call", "status":
		r.call(step)
	case "call_once":
		r.callOnce(step)
	}
	return nil
}

// StepNotRunnable is a step whose precondition an earlier step did not deliver: nothing is sent.
type StepNotRunnable struct{ reason string }

func (e *StepNotRunnable) Error() string { return e.reason }

func runnable(c *connection) error {
	if c.session == nil {
		return &StepNotRunnable{"connection " + c.name + " is not connected (its connect step failed, or it was closed)"}
	}
	return nil
}

type bearer struct {
	token string
	next  http.RoundTripper
}

// RoundTrip adds the header to a clone: a RoundTripper must not change the request it was given.
func (b *bearer) RoundTrip(request *http.Request) (*http.Response, error) {
	clone := request.Clone(request.Context())
	clone.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(clone)
}

func (r *Run) connect(step *Step) error {
	spec := r.script.Servers[step.Server]
	c := &connection{name: step.Connection, manual: r.manual[step.Connection]}
	r.connMu.Lock()
	r.connections[step.Connection] = c
	r.all = append(r.all, c)
	r.connMu.Unlock()
	options := &mcp.ClientOptions{ElicitationHandler: c.elicit}
	if c.manual {
		options.MultiRoundTrip = &mcp.MultiRoundTripOptions{Disabled: true}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, options)
	sent := map[string]any{"server": step.Server, "version_mode": r.script.VersionMode}
	api := apiConnect
	var transport mcp.Transport
	kind := "stdio"
	if spec.HTTP() {
		kind, api = "http", apiConnectHTTP
		sent["url"] = spec.URL
		sent["bearer_token_env"] = spec.TokenEnv
		transport = &mcp.StreamableClientTransport{Endpoint: spec.URL,
			HTTPClient: &http.Client{Transport: &bearer{token: spec.Token(), next: http.DefaultTransport}}}
	} else {
		command := exec.Command(spec.Command[0], spec.Command[1:]...)
		// The child gets the driver's whole environment plus the script's (script values win: later entries do).
		command.Env = os.Environ()
		for name, value := range spec.Env {
			command.Env = append(command.Env, name+"="+value)
		}
		command.Stderr = os.Stderr
		transport = &mcp.CommandTransport{Command: command}
	}
	if c.manual {
		api += apiManual
	}
	var sessionOptions *mcp.ClientSessionOptions
	switch r.script.VersionMode {
	case "pin":
		sessionOptions = &mcp.ClientSessionOptions{ProtocolVersion: pinnedVersion}
	case "auto":
		sessionOptions = &mcp.ClientSessionOptions{}
	}
	// "default": no options at all; the SDK then offers its latest version, which is what "auto" does too.
	r.timed(step, api, sent, kind, func() (reply, error) {
		ctx, cancel := r.ctx()
		defer cancel()
		session, err := client.Connect(ctx, transport, sessionOptions)
		if err != nil {
			return reply{}, err
		}
		c.session = session
		return reply{outcome: "connected"}, nil
	})
	return nil
}

func (r *Run) call(step *Step) {
	c := r.conn(step.Connection)
	tool, arguments, answer := step.Tool, step.Arguments, step.Answer
	if step.Op == "status" {
		tool, arguments, answer = statusTool, map[string]any{"operation_id": step.OperationID}, nil
	}
	sent := map[string]any{"tool": tool, "arguments": arguments, "answer": nilIfEmpty(answer), "input_responses": nil,
		"request_state": "absent"}
	api := apiCall
	if c.manual {
		api += apiManual
	}
	r.timed(step, api, sent, "", func() (reply, error) {
		if err := runnable(c); err != nil {
			return reply{}, err
		}
		if c.manual && step.Op == "call" {
			// The automatic call needs the middleware this connection's client was built without.
			return reply{}, &StepNotRunnable{"connection " + c.name + " plays call_once, so its client has MultiRoundTrip" +
				" disabled and the Go SDK has no automatic call on it (the option is client-wide)"}
		}
		c.setAnswer(answer)
		defer c.setAnswer(nil)
		ctx, cancel := r.ctx()
		defer cancel()
		result, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: arguments})
		if err != nil {
			return reply{}, err
		}
		return toolReply(result, "")
	})
}

func (r *Run) callOnce(step *Step) {
	c := r.conn(step.Connection)
	params := &mcp.CallToolParams{Name: step.Tool, Arguments: step.Arguments}
	shown := "absent"
	sent := func() map[string]any {
		return map[string]any{"tool": step.Tool, "arguments": step.Arguments, "answer": nil,
			"input_responses": nilIfEmpty(step.inputs), "request_state": shown}
	}
	if step.State != "" {
		r.stateMu.Lock()
		saved, ok := r.states[step.State]
		r.stateMu.Unlock()
		if !ok {
			r.write(step, nil, sent(), "", r.nowMs(), 0, reply{outcome: "threw", threw: &Thrown{Type: "StepNotRunnable",
				Message: fmt.Sprintf("no requestState was saved under %q (the saving step got no input_required answer)", step.State)}})
			return
		}
		params.RequestState, shown = saved, "present"
		if step.Tamper {
			params.RequestState, shown = Tamper(saved), "tampered"
		}
	}
	got := r.timed(step, apiCallOnce, sent(), "", func() (reply, error) {
		if err := runnable(c); err != nil {
			return reply{}, err
		}
		if step.InputResponses != nil {
			// The SDK's own decoding of the wire form: each response becomes its typed InputResponse.
			if err := json.Unmarshal(step.InputResponses, &params.InputResponses); err != nil {
				return reply{}, err
			}
		}
		ctx, cancel := r.ctx()
		defer cancel()
		result, err := c.session.CallTool(ctx, params)
		if err != nil {
			return reply{}, err
		}
		return toolReply(result, step.SaveState)
	})
	if got.savedState != "" && got.requestState != "" {
		r.stateMu.Lock()
		r.states[got.savedState] = got.requestState
		r.stateMu.Unlock()
	}
}

func nilIfEmpty(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

// toolReply writes down the result in its wire form, as the SDK marshals it; a requestState only by its length.
func toolReply(result *mcp.CallToolResult, saveAs string) (reply, error) {
	raw, err := json.Marshal(result)
	if err != nil {
		return reply{}, err
	}
	var wire map[string]any
	if err := json.Unmarshal(raw, &wire); err != nil {
		return reply{}, err
	}
	outcome := "result"
	if result.NeedsInput() {
		outcome = "input_required"
	} else if result.IsError {
		outcome = "tool_error"
	}
	var stateLength any
	if result.RequestState != "" {
		stateLength = len(result.RequestState)
	}
	got := reply{outcome: outcome, result: map[string]any{"resultType": wire["resultType"], "isError": wire["isError"],
		"structuredContent": wire["structuredContent"], "content": wire["content"], "request_state_length": stateLength}}
	// Only an input_required answer's state is saved: a complete result has nothing to continue.
	if outcome == "input_required" {
		got.requestState = result.RequestState
		if result.RequestState != "" {
			got.savedState = saveAs
		}
	}
	return got, nil
}

func asJSON(value any) any {
	raw, err := json.Marshal(value)
	if err != nil {
		return fmt.Sprint(value)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return string(raw)
	}
	return out
}

// sentinels name the SDK's and the standard library's well-known errors, found anywhere in an error's chain.
var sentinels = []struct {
	err  error
	name string
}{
	{mcp.ErrConnectionClosed, "ErrConnectionClosed"},
	{mcp.ErrSessionMissing, "ErrSessionMissing"},
	{context.DeadlineExceeded, "DeadlineExceeded"},
	{context.Canceled, "Canceled"},
	{io.EOF, "EOF"},
	{io.ErrUnexpectedEOF, "ErrUnexpectedEOF"},
}

// describe turns an error into a record's "threw": type is the Go type of the error as returned, code the JSON-RPC
// code carried anywhere in its chain, else the name of a known sentinel in it, else null; cause the error it wraps.
func describe(err error) *Thrown {
	thrown := &Thrown{Type: fmt.Sprintf("%T", err), Message: err.Error()}
	var notRunnable *StepNotRunnable
	if errors.As(err, &notRunnable) {
		thrown.Type = "StepNotRunnable"
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		thrown.Code = wire.Code
		if len(wire.Data) > 0 {
			var data any
			if json.Unmarshal(wire.Data, &data) == nil {
				thrown.Data = withoutRequestStates(data)
			} else {
				thrown.Data = string(wire.Data)
			}
		}
	} else {
		for _, s := range sentinels {
			if errors.Is(err, s.err) {
				thrown.Code = s.name
				break
			}
		}
	}
	if inner := errors.Unwrap(err); inner != nil {
		thrown.Cause = fmt.Sprintf("%T: %s", inner, inner.Error())
	}
	return thrown
}

// withoutRequestStates replaces every requestState by its length: a state is a bearer credential for the
// continuation.
func withoutRequestStates(value any) any {
	switch v := value.(type) {
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = withoutRequestStates(item)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for name, member := range v {
			if name == "requestState" {
				if s, ok := member.(string); ok {
					out["request_state_length"] = len(s)
				} else {
					out["request_state_length"] = nil
				}
				continue
			}
			out[name] = withoutRequestStates(member)
		}
		return out
	}
	return value
}

func (r *Run) nowMs() int64 { return time.Since(r.started).Milliseconds() }

// timed runs one SDK call, turns an error into the threw outcome, and writes the record as soon as it is known.
func (r *Run) timed(step *Step, api string, sent map[string]any, transport string, call func() (reply, error)) reply {
	started := r.nowMs()
	clock := time.Now()
	got, err := call()
	if err != nil {
		got = reply{outcome: "threw", threw: describe(err)}
	}
	r.write(step, api, sent, transport, started, time.Since(clock).Milliseconds(), got)
	return got
}

func (r *Run) write(step *Step, api any, sent map[string]any, transport string, started, elapsed int64, got reply) {
	record := Record{Format: "client-record/1", Client: "go", SdkVersion: r.sdkVersion, Step: step.ID, Op: step.Op,
		Connection: step.Connection, Transport: transport, API: api, Sent: sent, Outcome: got.outcome,
		Result: got.result, Threw: got.threw, StartedMs: started, ElapsedMs: elapsed}
	if got.savedState != "" {
		record.SavedState = got.savedState
	}
	line, err := json.Marshal(record)
	if err != nil {
		panic(fmt.Sprintf("a client record could not be written as JSON: %v", err))
	}
	r.writeMu.Lock()
	defer r.writeMu.Unlock()
	// One write per line, as soon as the step ends: if the driver dies later, what already happened is on disk.
	if _, err := r.records.Write(append(line, '\n')); err != nil {
		panic(fmt.Sprintf("the records file could not be written: %v", err))
	}
}
