// Package server is the guarded fixture on the official Go SDK: the two tools of the seed (spec §8.1),
// create_guarded_issue, a two-round MRTR call whose continuation applies once through the bridge, and
// get_operation_status, the authoritative read-back.
//
// The tools are registered with the SDK's low-level Server.AddTool, so the handler sees the arguments as the
// client sent them (json.RawMessage), and its JSON-RPC errors reach the wire as given. The typed inputResponses
// the SDK decodes (InputResponseMap) drop members they do not know, so the handler reads the request's params as
// sent instead: the gated connection (transport.go) hands them over in RequestExtra.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/bridge"
	"lab.continuationreplay/gofixture/internal/config"
	"lab.continuationreplay/gofixture/internal/fingerprint"
	"lab.continuationreplay/gofixture/internal/guarded"
	"lab.continuationreplay/gofixture/internal/requeststate"
	"lab.continuationreplay/gofixture/internal/tooltable"
)

// Names and exit statuses.
const (
	Name                = "continuation-replay-go-fixture"
	Version             = "0.1.0"
	GuardedTool         = "create_guarded_issue"
	StatusTool          = "get_operation_status"
	DropAfterCommitExit = 70
)

// Caller is the bridge as the tools use it.
type Caller interface {
	Call(request any) (bridge.Answer, error)
}

// Tools holds what the handlers need.
type Tools struct {
	Config config.Config
	Codec  *requeststate.Codec
	// Bridges is the bridge of a principal: on stdio the one bridge, over HTTP one child per principal (the bridge
	// takes its principal from its own environment; its protocol has no principal field).
	Bridges func(principal string) Caller
	// Exit ends the process without a reply (drop-after-commit).
	Exit func(status int)
	Log  io.Writer
}

// StateRefusal is the frozen JSON-RPC error for any requestState that does not open.
func StateRefusal() error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: requeststate.InvalidMessage,
		Data: json.RawMessage(`{"reason":"` + requeststate.InvalidReason + `"}`)}
}

// MissingElicitation is -32021: the request's client capabilities do not declare form elicitation, so the first
// round cannot ask for the body (the Go SDK does not check this itself).
func MissingElicitation() error {
	return &jsonrpc.Error{Code: -32021,
		Message: "Cannot request input 'body' (elicitation/create): the request's client capabilities do not declare form elicitation",
		Data:    json.RawMessage(`{"requiredCapabilities":{"elicitation":{"form":{}}}}`)}
}

// Register adds both tools to the server, as the shared table declares them (vectors/rules/tools.json, embedded).
func (t *Tools) Register(s *mcp.Server) error {
	return t.RegisterFrom(s, tooltable.Shipped())
}

// RegisterFrom adds both tools as table declares them, in its order; a table that is not these two tools is refused.
func (t *Tools) RegisterFrom(s *mcp.Server, table []byte) error {
	declared, err := tooltable.Declarations(table, "guarded", GuardedTool, StatusTool)
	if err != nil {
		return err
	}
	handlers := map[string]mcp.ToolHandler{GuardedTool: t.createGuardedIssue, StatusTool: t.getOperationStatus}
	for _, d := range declared {
		tool := &mcp.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema}
		if d.OutputSchema != nil {
			// only when declared: a nil json.RawMessage in the interface would be listed as null
			tool.OutputSchema = d.OutputSchema
		}
		s.AddTool(tool, handlers[d.Name])
	}
	return nil
}

// Complete is a complete result: the bridge's result as compact JSON text and as structured content.
func Complete(result json.RawMessage) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(result)}}, StructuredContent: result}
}

// ToolError is an isError result with one text: how this fixture, like the TypeScript one and as the SDK's own
// typed handlers do, reports an application refusal.
func ToolError(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

var operationErrors = []string{"operation_conflict", "operation_authority_expired", "operation_retention_expired", "operation_in_progress"}

// BridgeErrorText: operation_* → the code itself; an invalid request → the guard's message; else bridge_error: kind.
func BridgeErrorText(kind, detail string) string {
	for _, k := range operationErrors {
		if kind == k {
			return kind
		}
	}
	if kind == "invalid_application_request" {
		return detail
	}
	return "bridge_error: " + kind
}

// call is one bridge call as principal; a machinery failure or a bridge error becomes the isError result the client sees.
func (t *Tools) call(principal string, request any) (json.RawMessage, *mcp.CallToolResult, error) {
	answer, err := t.Bridges(principal).Call(request)
	var failure *bridge.MachineryFailure
	if errors.As(err, &failure) {
		return nil, ToolError(failure.Message), nil
	}
	if err != nil {
		return nil, nil, err
	}
	if !answer.OK {
		return nil, ToolError(BridgeErrorText(answer.Error, answer.Detail)), nil
	}
	return answer.Result, nil, nil
}

// SentParams is the request's params as the client sent them, parsed exactly, and the request's principal: both
// put into RequestExtra.TokenInfo by the fixture's own transport code (stdio: transport.go; HTTP: the httpserve
// package, from the bearer token), never read from the wire's own fields.
func SentParams(extra *mcp.RequestExtra) (map[string]any, string, bool) {
	if extra != nil && extra.TokenInfo != nil && extra.TokenInfo.UserID != "" {
		if raw, ok := extra.TokenInfo.Extra[ParamsKey].(json.RawMessage); ok {
			if v, err := fingerprint.ParseExact(raw); err == nil {
				if m, ok := v.(map[string]any); ok {
					return m, extra.TokenInfo.UserID, true
				}
			}
		}
	}
	return nil, "", false
}

// closeConnection is the request's own way to cut its connection (HTTP's close-after-commit), or nil.
func closeConnection(req *mcp.CallToolRequest) func() {
	if req.Extra != nil && req.Extra.TokenInfo != nil {
		if f, ok := req.Extra.TokenInfo.Extra[CloseKey].(func()); ok {
			return f
		}
	}
	return nil
}

func (t *Tools) getOperationStatus(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	params, principal, ok := SentParams(req.Extra)
	if !ok {
		return nil, errors.New("the request's params were not handed over")
	}
	// A single-round tool mints no state, so no requestState can be valid for it: refused like any state that does
	// not open, as the Java server and the Python and TypeScript fixtures do. It used to be ignored and the status
	// answered (found by lab faults, token-attacks). A non-string one (null included) never gets here: the frame gate
	// refuses it for every tool.
	if _, present := params["requestState"]; present {
		fmt.Fprintf(t.Log, "%s: requestState refused: %s has no continuation\n", Name, StatusTool)
		return nil, StateRefusal()
	}
	args, _ := params["arguments"].(map[string]any)
	operationID, isString := args["operation_id"].(string)
	if !isString {
		return ToolError("operation_id is required"), nil
	}
	result, refusal, err := t.call(principal, map[string]any{"op": "status", "operation_id": operationID})
	if refusal != nil || err != nil {
		return refusal, err
	}
	return Complete(result), nil
}

func (t *Tools) createGuardedIssue(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	params, principal, ok := SentParams(req.Extra)
	if !ok {
		return nil, errors.New("the request's params were not handed over")
	}
	rawArgs, _ := params["arguments"].(map[string]any)
	if rawArgs == nil {
		rawArgs = map[string]any{} // absent arguments count as {}
	}
	stateValue, hasState := params["requestState"]
	responses, hasResponses := params["inputResponses"]

	// The state is checked before anything else, as the Java and TypeScript SDKs check it before the handler runs:
	// a tampered, expired, foreign or non-string state, or one minted for other arguments, never reaches the bridge.
	var state requeststate.ContinuationState
	if hasState {
		token, isString := stateValue.(string)
		digest, digestErr := guarded.Digest(rawArgs)
		if !isString || digestErr != nil {
			return nil, StateRefusal()
		}
		opened, err := t.Codec.Open(token, requeststate.Binding{Tool: GuardedTool, ArgumentsDigest: digest, Principal: principal})
		if err != nil {
			fmt.Fprintf(t.Log, "%s: %v\n", Name, err)
			return nil, StateRefusal()
		}
		state = opened
	}
	args, err := guarded.ReadArguments(rawArgs)
	if err != nil {
		return ToolError(err.Error()), nil
	}
	if !hasResponses {
		if hasState {
			return ToolError("requestState without input responses"), nil
		}
		return t.firstRound(params, principal, args)
	}
	if !hasState {
		return ToolError("unsupported continuation: input responses require requestState"), nil
	}
	body, err := guarded.AcceptedBody(responses)
	if err != nil {
		return ToolError(err.Error()), nil
	}
	result, refusal, err := t.call(principal, map[string]any{
		"op": "apply", "operation_id": args.OperationID, "title": args.Title, "mode": args.Mode, "body": body,
		"state": state.JSON(), "responses": guarded.NormalisedResponses(body),
	})
	if refusal != nil || err != nil {
		return refusal, err
	}
	if t.Config.Fault == config.DropAfterCommit || t.Config.Fault == config.CloseAfterCommit {
		var r struct {
			Replayed *bool `json:"replayed"`
		}
		if json.Unmarshal(result, &r) == nil && r.Replayed != nil && !*r.Replayed {
			if t.Config.Fault == config.DropAfterCommit {
				fmt.Fprintln(t.Log, "drop-after-commit: the effect is committed; exiting before the reply")
				t.Exit(DropAfterCommitExit)
			}
			// close-after-commit (HTTP only): the connection goes, the process keeps serving; the reply written
			// afterwards has nowhere to go.
			if cut := closeConnection(req); cut != nil {
				fmt.Fprintln(t.Log, "close-after-commit: the effect is committed; closing the connection before the reply")
				cut()
			}
		}
	}
	return Complete(result), nil
}

// DeclaredCapabilities is the clientCapabilities a request's own _meta declares, nil for none.
func DeclaredCapabilities(params map[string]any) map[string]any {
	meta, _ := params["_meta"].(map[string]any)
	declared, _ := meta["io.modelcontextprotocol/clientCapabilities"].(map[string]any)
	return declared
}

// declaresFormElicitation: the request's own clientCapabilities (never an earlier request's) hold elicitation,
// either empty (form only) or with form.
func declaresFormElicitation(params map[string]any) bool {
	elicitation, ok := DeclaredCapabilities(params)["elicitation"].(map[string]any)
	if !ok {
		return false
	}
	if len(elicitation) == 0 {
		return true
	}
	_, form := elicitation["form"].(map[string]any)
	return form
}

func (t *Tools) firstRound(params map[string]any, principal string, args guarded.Arguments) (*mcp.CallToolResult, error) {
	if !declaresFormElicitation(params) {
		return nil, MissingElicitation()
	}
	c := t.Config
	state := requeststate.NewState(args.OperationID, c.ClockEpoch, c.AuthorityTTL, c.ReplayRetentionTTL)
	token, err := t.Codec.Mint(requeststate.Binding{Tool: GuardedTool, ArgumentsDigest: guarded.DigestOf(args), Principal: principal}, state)
	if err != nil {
		return nil, err
	}
	return bodyRequest(args.Title, token), nil
}

// bodyRequest is the first round's answer: input_required, asking for the body by a form, with the sealed state.
func bodyRequest(title, token string) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{"body": &mcp.ElicitParams{
			Message:         "Body for " + title + "?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"body":{"type":"string"}},"required":["body"]}`),
		}},
		RequestState: token,
	}
}
