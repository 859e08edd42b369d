package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/fingerprint"
	"lab.continuationreplay/gofixture/internal/guarded"
	"lab.continuationreplay/gofixture/internal/requeststate"
	"lab.continuationreplay/gofixture/internal/tooltable"
)

// UnguardedTool is the control's one tool (`--unguarded`): the same SDK server, the same two rounds, the same
// sealed and bound requestState and the same bridge as the guarded tool, but its continuation writes through the
// bridge's "create" op, a new issue on every call and no operation row. `lab bench` sets the guarded fixture beside
// it, so the ratio is the guard's cost alone. Its state carries a nonce and an empty operation id: it has no
// operation.
const UnguardedTool = "create_issue"

// RegisterUnguarded adds the control's tool as the shared table declares it (vectors/rules/tools.json).
func (t *Tools) RegisterUnguarded(s *mcp.Server) error {
	return t.RegisterUnguardedFrom(s, tooltable.Shipped())
}

// RegisterUnguardedFrom adds the control's tool as table declares it; a table whose control is another tool is
// refused.
func (t *Tools) RegisterUnguardedFrom(s *mcp.Server, table []byte) error {
	declared, err := tooltable.Declarations(table, "unguarded", UnguardedTool)
	if err != nil {
		return err
	}
	d := declared[0]
	s.AddTool(&mcp.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema}, t.createIssue)
	return nil
}

// TitleDigest is lowercase hex SHA-256 of canonical({title}): the control binds its one argument as the guarded
// tool binds its three.
func TitleDigest(args map[string]any) (string, error) {
	title, present := args["title"]
	if !present {
		return "", errors.New("title is missing")
	}
	text, err := fingerprint.Canonical(map[string]any{"title": title})
	if err != nil {
		return "", err
	}
	return fingerprint.SHA256Hex(text), nil
}

func (t *Tools) createIssue(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	params, principal, ok := SentParams(req.Extra)
	if !ok {
		return nil, errors.New("the request's params were not handed over")
	}
	rawArgs, _ := params["arguments"].(map[string]any)
	if rawArgs == nil {
		rawArgs = map[string]any{}
	}
	stateValue, hasState := params["requestState"]
	responses, hasResponses := params["inputResponses"]
	if hasState {
		token, isString := stateValue.(string)
		digest, digestErr := TitleDigest(rawArgs)
		if !isString || digestErr != nil {
			return nil, StateRefusal()
		}
		if _, err := t.Codec.Open(token, requeststate.Binding{Tool: UnguardedTool, ArgumentsDigest: digest, Principal: principal}); err != nil {
			fmt.Fprintf(t.Log, "%s: %v\n", Name, err)
			return nil, StateRefusal()
		}
	}
	title, isString := rawArgs["title"].(string)
	if !isString || title == "" {
		return ToolError("title is required"), nil
	}
	if fingerprint.UTF16Length(title) > guarded.MaxTextLength {
		return ToolError(fmt.Sprintf("title is longer than %d characters", guarded.MaxTextLength)), nil
	}
	if !hasResponses {
		if hasState {
			return ToolError("requestState without input responses"), nil
		}
		if !declaresFormElicitation(params) {
			return nil, MissingElicitation()
		}
		digest, _ := TitleDigest(rawArgs)
		state := requeststate.NewState("", t.Config.ClockEpoch, 0, 0)
		token, err := t.Codec.Mint(requeststate.Binding{Tool: UnguardedTool, ArgumentsDigest: digest, Principal: principal}, state)
		if err != nil {
			return nil, err
		}
		return bodyRequest(title, token), nil
	}
	if !hasState {
		return ToolError("unsupported continuation: input responses require requestState"), nil
	}
	body, err := guarded.AcceptedBody(responses)
	if err != nil {
		return ToolError(err.Error()), nil
	}
	result, refusal, err := t.call(principal, map[string]any{
		"op": "create", "title": title, "body": body, "responses": guarded.NormalisedResponses(body),
	})
	if refusal != nil || err != nil {
		return refusal, err
	}
	return Complete(result), nil
}
