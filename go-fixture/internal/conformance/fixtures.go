package conformance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/fingerprint"
	"lab.continuationreplay/gofixture/internal/server"
)

const (
	toolsCall  = "tools/call"
	promptsGet = "prompts/get"

	elicitation          = "test_input_required_result_elicitation"
	sampling             = "test_input_required_result_sampling"
	listRoots            = "test_input_required_result_list_roots"
	requestState         = "test_input_required_result_request_state"
	multipleInputs       = "test_input_required_result_multiple_inputs"
	multiRound           = "test_input_required_result_multi_round"
	tamperedState        = "test_input_required_result_tampered_state"
	capabilitiesFixture  = "test_input_required_result_capabilities"
	missingCapability    = "test_missing_capability"
	streamingElicitation = "test_streaming_elicitation"
	mrtrPrompt           = "test_input_required_result_prompt"
	argumentsPrompt      = "test_prompt_with_arguments"
)

// A 1×1 PNG and a 1 ms WAV, made for these fixtures.
var (
	png, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")
	wav, _ = base64.StdEncoding.DecodeString("UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==")
)

// Profile registers the suite's fixtures on one SDK server.
type Profile struct {
	States *States
	Log    io.Writer
}

// Capabilities are the profile's: tools, prompts, resources, completions and logging.
func Capabilities() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}, Prompts: &mcp.PromptCapabilities{ListChanged: true},
		Resources: &mcp.ResourceCapabilities{}, Completions: &mcp.CompletionCapabilities{}, Logging: &mcp.LoggingCapabilities{}}
}

// request is what the fixture's transport code handed over: the params as sent, parsed exactly, and the principal.
func request(extra *mcp.RequestExtra) (map[string]any, string, error) {
	if extra == nil || extra.TokenInfo == nil || extra.TokenInfo.UserID == "" {
		return nil, "", fmt.Errorf("an unauthenticated request reached the SDK")
	}
	params, principal, ok := server.SentParams(extra)
	if !ok {
		return nil, "", fmt.Errorf("the request's params were not handed over")
	}
	return params, principal, nil
}

func text(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }

func done(lines ...string) *mcp.CallToolResult {
	r := &mcp.CallToolResult{}
	for _, l := range lines {
		r.Content = append(r.Content, text(l))
	}
	return r
}

func schema(fields ...string) json.RawMessage {
	props := map[string]any{}
	for _, f := range fields {
		props[f] = map[string]any{"type": "string"}
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": fields})
	return b
}

func askName(message string) mcp.InputRequest {
	return &mcp.ElicitParams{Message: message, RequestedSchema: schema("name")}
}

func askConfirm() mcp.InputRequest {
	return &mcp.ElicitParams{Message: "Please confirm",
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)}
}

func askSample(prompt string, maxTokens int64) mcp.InputRequest {
	return &mcp.CreateMessageParams{Messages: []*mcp.SamplingMessage{{Role: "user", Content: text(prompt)}}, MaxTokens: maxTokens}
}

func askRoots() mcp.InputRequest { return &mcp.ListRootsParams{} }

func response(responses map[string]any, key string) map[string]any {
	r, _ := responses[key].(map[string]any)
	return r
}

func acceptedContent(responses map[string]any, key string) (map[string]any, bool) {
	r := response(responses, key)
	if r == nil || r["action"] != "accept" {
		return nil, false
	}
	content, _ := r["content"].(map[string]any)
	if content == nil {
		content = map[string]any{}
	}
	return content, true
}

func acceptedString(responses map[string]any, key, field string) (string, bool) {
	content, ok := acceptedContent(responses, key)
	if !ok {
		return "", false
	}
	s, ok := content[field].(string)
	return s, ok
}

func sampledText(responses map[string]any, key string) (string, bool) {
	r := response(responses, key)
	if r == nil || r["role"] == nil {
		return "", false
	}
	blocks, isList := r["content"].([]any)
	if !isList {
		blocks = []any{r["content"]}
	}
	for _, b := range blocks {
		if block, _ := b.(map[string]any); block != nil && block["type"] == "text" {
			if t, ok := block["text"].(string); ok {
				return t, true
			}
		}
	}
	return "", false
}

func rootURIs(responses map[string]any, key string) ([]string, bool) {
	roots, ok := response(responses, key)["roots"].([]any)
	if !ok {
		return nil, false
	}
	uris := []string{}
	for _, r := range roots {
		if root, _ := r.(map[string]any); root != nil {
			if u, ok := root["uri"].(string); ok {
				uris = append(uris, u)
			}
		}
	}
	return uris, true
}

// outcome of one round of a sealed fixture: a finished result, or the questions and the data to seal.
type outcome struct {
	finish *mcp.CallToolResult
	prompt *mcp.GetPromptResult
	ask    mcp.InputRequestMap
	data   any
}

type step func(data any, responses map[string]any, params map[string]any) outcome

// round opens the state of a continuation (refusing a continuation without one) and runs the step.
func (p *Profile) round(method, name string, extra *mcp.RequestExtra, st step) (outcome, string, error) {
	params, principal, err := request(extra)
	if err != nil {
		return outcome{}, "", err
	}
	var data any
	var responses map[string]any
	if raw, has := params["requestState"]; has {
		token, isString := raw.(string)
		if !isString {
			return outcome{}, "", server.StateRefusal()
		}
		opened, err := p.States.Open(token, method, name, params["arguments"], principal)
		if err != nil {
			fmt.Fprintf(p.Log, "%s: fixture state refused: %v\n", name, err)
			return outcome{}, "", server.StateRefusal()
		}
		data = opened
		responses, _ = params["inputResponses"].(map[string]any)
	} else if _, has := params["inputResponses"]; has {
		// A continuation without its state: every sealed fixture depended on the state, so none completes.
		return outcome{}, "", server.StateRefusal()
	}
	out := st(data, responses, params)
	if out.finish != nil || out.prompt != nil {
		return out, "", nil
	}
	if err := undeclared(params, out.ask); err != nil {
		return outcome{}, "", err
	}
	token, err := p.States.Seal(method, name, params["arguments"], principal, out.data)
	if err != nil {
		return outcome{}, "", server.StateRefusal()
	}
	return out, token, nil
}

func (p *Profile) sealedTool(s *mcp.Server, name, description string, st step) {
	s.AddTool(&mcp.Tool{Name: name, Description: description, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			out, token, err := p.round(toolsCall, name, req.Extra, st)
			if err != nil {
				return nil, err
			}
			if out.finish != nil {
				return out.finish, nil
			}
			return &mcp.CallToolResult{InputRequests: out.ask, RequestState: token}, nil
		})
}

func tool(s *mcp.Server, name, description string, h func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult) {
	s.AddTool(&mcp.Tool{Name: name, Description: description, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return h(ctx, req), nil
		})
}

// Register adds every fixture to s.
func (p *Profile) Register(s *mcp.Server) {
	p.contentTools(s)
	p.inputRequiredTools(s)
	p.prompts(s)
	resources(s)
}

func (p *Profile) contentTools(s *mcp.Server) {
	tool(s, "test_simple_text", "Returns one text block.", func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult {
		return done("This is a simple text response for testing.")
	})
	tool(s, "test_image_content", "Returns one PNG image.", func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: png, MIMEType: "image/png"}}}
	})
	tool(s, "test_audio_content", "Returns one WAV clip.", func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: wav, MIMEType: "audio/wav"}}}
	})
	tool(s, "test_embedded_resource", "Returns an embedded text resource.", func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
			URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."}}}}
	})
	tool(s, "test_multiple_content_types", "Returns text, an image and an embedded resource.", func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{text("Multiple content types test:"),
			&mcp.ImageContent{Data: png, MIMEType: "image/png"},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://mixed-content-resource", MIMEType: "application/json",
				Text: `{"test":"data","value":123}`}}}}
	})
	tool(s, "test_error_handling", "Always fails, as a tool error result.", func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{text("This tool intentionally returns an error for testing")}, IsError: true}
	})
	tool(s, "test_tool_with_progress", "Reports progress 0, 50 and 100 of 100 when given a progress token.",
		func(ctx context.Context, req *mcp.CallToolRequest) *mcp.CallToolResult {
			token := req.Params.GetProgressToken()
			for _, progress := range []float64{0, 50, 100} {
				if token != nil {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: progress, Total: 100})
				}
				if progress < 100 {
					time.Sleep(50 * time.Millisecond)
				}
			}
			if token == nil {
				return done("Progress tool finished (no progress token).")
			}
			return done("Progress tool finished.")
		})
	tool(s, "test_logging_tool", "Logs at info level; the SDK sends nothing unless the request asked for a log level.",
		func(ctx context.Context, req *mcp.CallToolRequest) *mcp.CallToolResult {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "test_logging_tool ran"})
			return done("Logging tool finished.")
		})
	// Adding a tool or prompt again under its own name is how the SDK announces a list change to open subscriptions.
	var triggerTool, triggerPrompt func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult
	triggerTool = func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult {
		tool(s, "test_trigger_tool_change", "Announces a tool list change to open subscriptions.", triggerTool)
		return done("Tool list change announced.")
	}
	triggerPrompt = func(context.Context, *mcp.CallToolRequest) *mcp.CallToolResult {
		simplePrompt(s)
		return done("Prompt list change announced.")
	}
	tool(s, "test_trigger_tool_change", "Announces a tool list change to open subscriptions.", triggerTool)
	tool(s, "test_trigger_prompt_change", "Announces a prompt list change to open subscriptions.", triggerPrompt)
}

func (p *Profile) inputRequiredTools(s *mcp.Server) {
	s.AddTool(&mcp.Tool{Name: elicitation, Description: "Asks for a name (user_name) and greets it; issues no requestState.",
		InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			params, _, err := request(req.Extra)
			if err != nil {
				return nil, err
			}
			if _, has := params["requestState"]; has {
				return nil, server.StateRefusal() // it issues none, so none can be its own
			}
			responses, _ := params["inputResponses"].(map[string]any)
			if name, ok := acceptedString(responses, "user_name", "name"); ok {
				return done("Hello, " + name + "!"), nil
			}
			// No answer to user_name (none, another key, not an accepted form): ask again, as SEP-2322 recommends.
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"user_name": askName("What is your name?")}}, nil
		})
	p.sealedTool(s, sampling, "Asks the client to sample an answer (capital_question).", func(data any, rs, _ map[string]any) outcome {
		if answer, ok := sampledText(rs, "capital_question"); data == "asked" && ok {
			return outcome{finish: done("Sampling response: " + answer)}
		}
		return outcome{ask: mcp.InputRequestMap{"capital_question": askSample("What is the capital of France?", 100)}, data: "asked"}
	})
	p.sealedTool(s, listRoots, "Asks for the client's roots (client_roots).", func(data any, rs, _ map[string]any) outcome {
		if roots, ok := rootURIs(rs, "client_roots"); data == "asked" && ok {
			listed := strings.Join(roots, ", ")
			if len(roots) == 0 {
				listed = "(none)"
			}
			return outcome{finish: done("Client roots: " + listed)}
		}
		return outcome{ask: mcp.InputRequestMap{"client_roots": askRoots()}, data: "asked"}
	})
	p.sealedTool(s, requestState, "Asks for a confirmation (confirm) and says state-ok once its sealed state came back.",
		func(data any, rs, _ map[string]any) outcome {
			if answer, ok := acceptedContent(rs, "confirm"); data == "asked" && ok {
				ok, _ := fingerprint.Canonical(answer["ok"])
				if answer["ok"] == nil {
					ok = "undefined"
				}
				return outcome{finish: done("state-ok: the requestState verified; ok=" + ok)}
			}
			return outcome{ask: mcp.InputRequestMap{"confirm": askConfirm()}, data: "asked"}
		})
	p.sealedTool(s, multipleInputs, "Asks for a name, a sampled greeting and the roots in one round.", func(data any, rs, _ map[string]any) outcome {
		if data == "asked" {
			name, okName := acceptedString(rs, "user_name", "name")
			greeting, okGreeting := sampledText(rs, "greeting")
			roots, okRoots := rootURIs(rs, "client_roots")
			if okName && okGreeting && okRoots {
				return outcome{finish: done(fmt.Sprintf("name=%s; greeting=%s; roots=%s", name, greeting, strings.Join(roots, ", ")))}
			}
		}
		return outcome{ask: mcp.InputRequestMap{"user_name": askName("What is your name?"),
			"greeting": askSample("Generate a greeting", 50), "client_roots": askRoots()}, data: "asked"}
	})
	askColor := func() mcp.InputRequest {
		return &mcp.ElicitParams{Message: "Step 2: What is your favorite color?", RequestedSchema: schema("color")}
	}
	p.sealedTool(s, multiRound, "Asks for a name (step1), then a colour (step2), each round with a new sealed state.",
		func(data any, rs, _ map[string]any) outcome {
			if d, ok := data.(map[string]any); ok {
				if name, ok := d["name"].(string); ok {
					if color, ok := acceptedString(rs, "step2", "color"); ok {
						return outcome{finish: done(name + " likes " + color + ".")}
					}
					return outcome{ask: mcp.InputRequestMap{"step2": askColor()}, data: map[string]any{"name": name}}
				}
			}
			if name, ok := acceptedString(rs, "step1", "name"); data == "step1" && ok {
				return outcome{ask: mcp.InputRequestMap{"step2": askColor()}, data: map[string]any{"name": name}}
			}
			return outcome{ask: mcp.InputRequestMap{"step1": askName("Step 1: What is your name?")}, data: "step1"}
		})
	p.sealedTool(s, tamperedState, "Asks for a confirmation; a continuation whose state fails verification is refused.",
		func(data any, rs, _ map[string]any) outcome {
			if _, ok := acceptedContent(rs, "confirm"); data == "asked" && ok {
				return outcome{finish: done("The requestState verified.")}
			}
			return outcome{ask: mcp.InputRequestMap{"confirm": askConfirm()}, data: "asked"}
		})
	p.sealedTool(s, capabilitiesFixture, "Asks only for what the request's client capabilities declare.",
		func(data any, rs, params map[string]any) outcome {
			if data == "asked" && rs != nil {
				answered := strings.Join(slices.Sorted(maps.Keys(rs)), ", ")
				if answered == "" {
					answered = "(nothing)"
				}
				return outcome{finish: done("Answered: " + answered)}
			}
			declared := server.DeclaredCapabilities(params)
			requests := mcp.InputRequestMap{}
			if _, ok := declared["elicitation"]; ok {
				requests["user_name"] = askName("What is your name?")
			}
			if _, ok := declared["sampling"]; ok {
				requests["greeting"] = askSample("Generate a greeting", 50)
			}
			if _, ok := declared["roots"]; ok {
				requests["client_roots"] = askRoots()
			}
			if len(requests) == 0 {
				return outcome{finish: done("The client declared none of elicitation, sampling and roots; nothing to ask.")}
			}
			return outcome{ask: requests, data: "asked"}
		})
	// Needs sampling whatever the client declared, so a client without it gets -32021 (undeclared).
	p.sealedTool(s, missingCapability, "Always asks for sampling.", func(data any, rs, _ map[string]any) outcome {
		if answer, ok := sampledText(rs, "sample"); data == "asked" && ok {
			return outcome{finish: done("Sampled: " + answer)}
		}
		return outcome{ask: mcp.InputRequestMap{"sample": askSample("Say something", 20)}, data: "asked"}
	})
	p.sealedTool(s, streamingElicitation, "Asks for a name by input_required, never by a request of its own.",
		func(data any, rs, _ map[string]any) outcome {
			if name, ok := acceptedString(rs, "user_name", "name"); data == "asked" && ok {
				return outcome{finish: done("Hello, " + name + "!")}
			}
			return outcome{ask: mcp.InputRequestMap{"user_name": askName("What is your name?")}, data: "asked"}
		})
}

// undeclared is -32021 when an input request needs a capability the request's own clientCapabilities do not
// declare. The Go SDK sends input requests whatever the client declared
// (docs/findings/go-sdk-no-state-codec-or-capability-check.md); the Java and TypeScript SDKs refuse them so.
func undeclared(params map[string]any, ask mcp.InputRequestMap) error {
	declared := server.DeclaredCapabilities(params)
	for _, key := range slices.Sorted(maps.Keys(ask)) {
		var capability, method, required string
		switch ask[key].(type) {
		case *mcp.ElicitParams:
			capability, method, required = "elicitation", "elicitation/create", `{"elicitation":{"form":{}}}`
		case *mcp.CreateMessageParams:
			capability, method, required = "sampling", "sampling/createMessage", `{"sampling":{}}`
		case *mcp.ListRootsParams:
			capability, method, required = "roots", "roots/list", `{"roots":{}}`
		}
		if _, ok := declared[capability].(map[string]any); !ok {
			return &jsonrpc.Error{Code: -32021, Message: fmt.Sprintf("Cannot request input '%s' (%s): the request's client capabilities do not declare %s",
				key, method, capability), Data: json.RawMessage(`{"requiredCapabilities":` + required + `}`)}
		}
	}
	return nil
}

func user(c mcp.Content) *mcp.PromptMessage { return &mcp.PromptMessage{Role: "user", Content: c} }

func simplePrompt(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{Name: "test_simple_prompt", Description: "A prompt without arguments."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(text("This is a simple prompt for testing."))}}, nil
		})
}

func (p *Profile) prompts(s *mcp.Server) {
	simplePrompt(s)
	s.AddPrompt(&mcp.Prompt{Name: argumentsPrompt, Description: "A prompt with two required arguments.",
		Arguments: []*mcp.PromptArgument{{Name: "arg1", Description: "First test argument", Required: true},
			{Name: "arg2", Description: "Second test argument", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			a := req.Params.Arguments
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				user(text(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"])))}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_embedded_resource", Description: "A prompt that embeds the resource it is given.",
		Arguments: []*mcp.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				user(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: req.Params.Arguments["resourceUri"], MIMEType: "text/plain",
					Text: "Embedded resource content for testing."}}),
				user(text("Please process the embedded resource above."))}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_image", Description: "A prompt with an image."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(&mcp.ImageContent{Data: png, MIMEType: "image/png"}),
				user(text("Please analyze the image above."))}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: mrtrPrompt, Description: "Asks for the context (user_context) before it returns its messages."},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			out, token, err := p.round(promptsGet, mrtrPrompt, req.Extra, func(data any, rs, _ map[string]any) outcome {
				if c, ok := acceptedString(rs, "user_context", "context"); data == "asked" && ok {
					return outcome{prompt: &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(text("Use this context: " + c))}}}
				}
				return outcome{ask: mcp.InputRequestMap{"user_context": &mcp.ElicitParams{Message: "What context should the prompt use?",
					RequestedSchema: schema("context")}}, data: "asked"}
			})
			if err != nil {
				return nil, err
			}
			if out.prompt != nil {
				return out.prompt, nil
			}
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{}, InputRequests: out.ask, RequestState: token}, nil
		})
}

var templateID = regexp.MustCompile(`^test://template/([^/]+)/data$`)

func resources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{Name: "static-text", URI: "test://static-text", Description: "A fixed text resource.", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain",
				Text: "This is the content of the static text resource."}}}, nil
		})
	s.AddResource(&mcp.Resource{Name: "static-binary", URI: "test://static-binary", Description: "A fixed PNG resource.", MIMEType: "image/png"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "image/png", Blob: png}}}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "template-data", URITemplate: "test://template/{id}/data",
		Description: "JSON data for any id.", MIMEType: "application/json"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			m := templateID.FindStringSubmatch(req.Params.URI)
			if m == nil {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			body, _ := json.Marshal(map[string]any{"id": m[1], "templateTest": true, "data": "Data for ID: " + m[1]})
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(body)}}}, nil
		})
}

var completions = map[string][]string{
	"arg1": {"paris", "park", "party", "test", "testing"},
	"arg2": {"world", "wonder", "work"},
}

// Complete is completion/complete for test_prompt_with_arguments; any other reference completes to nothing.
func Complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	var candidates []string
	if ref := req.Params.Ref; ref != nil && ref.Type == "ref/prompt" && ref.Name == argumentsPrompt {
		candidates = completions[req.Params.Argument.Name]
	}
	values := []string{}
	for _, v := range candidates {
		if strings.HasPrefix(v, req.Params.Argument.Value) {
			values = append(values, v)
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
}
