// Package guarded holds the rules the fixture applies before any bridge call: the arguments of
// create_guarded_issue and the continuation's input responses, with the messages of shared-store's
// GuardedIssueArguments and InputResponses (vectors/rules/guarded-arguments.json, input-responses.json), and the
// digest that binds the arguments into the signed requestState.
package guarded

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"lab.continuationreplay/gofixture/internal/fingerprint"
)

// Limits, in UTF-16 code units as Java and JavaScript count them.
const (
	MaxOperationIDLength = 256
	MaxTextLength        = 65536
)

// Arguments are create_guarded_issue's, mode after defaulting.
type Arguments struct {
	OperationID string
	Title       string
	Mode        string
}

// InvalidArguments carries the shared message.
type InvalidArguments struct{ msg string }

func (e *InvalidArguments) Error() string { return e.msg }

// ReadArguments validates a parsed arguments object; an absent mode is atomic. The members are read as parsed:
// an absent member is missing, a JSON null is nil.
func ReadArguments(args map[string]any) (Arguments, error) {
	operationID, okID := args["operation_id"].(string)
	title, okTitle := args["title"].(string)
	if !okID || operationID == "" || !okTitle || title == "" {
		return Arguments{}, &InvalidArguments{"operation_id and title are required"}
	}
	if fingerprint.UTF16Length(operationID) > MaxOperationIDLength {
		return Arguments{}, &InvalidArguments{fmt.Sprintf("operation_id is longer than %d characters", MaxOperationIDLength)}
	}
	if fingerprint.UTF16Length(title) > MaxTextLength {
		return Arguments{}, &InvalidArguments{fmt.Sprintf("title is longer than %d characters", MaxTextLength)}
	}
	mode, present := args["mode"]
	if !present {
		return Arguments{operationID, title, "atomic"}, nil
	}
	// A JSON null is refused, as guardedArguments does in TypeScript (the table records Java's difference).
	if s, ok := mode.(string); ok && (s == "atomic" || s == "partial") {
		return Arguments{operationID, title, s}, nil
	}
	return Arguments{}, &InvalidArguments{"mode must be 'atomic' or 'partial'"}
}

// Digest is lowercase hex SHA-256 of canonical({operation_id, title, mode}), mode defaulted to atomic. Values are
// taken as they come: a digest of anything but the minted strings simply does not match.
func Digest(args map[string]any) (string, error) {
	mode, present := args["mode"]
	if !present || mode == nil {
		mode = "atomic"
	}
	text, err := fingerprint.Canonical(map[string]any{"operation_id": args["operation_id"], "title": args["title"], "mode": mode})
	if err != nil {
		return "", err
	}
	return fingerprint.SHA256Hex(text), nil
}

// DigestOf is Digest of validated arguments.
func DigestOf(a Arguments) string {
	d, _ := Digest(map[string]any{"operation_id": a.OperationID, "title": a.Title, "mode": a.Mode})
	return d
}

// NotAcceptedText is the refusal of a body response that is not accepted text.
const NotAcceptedText = "body response must be accepted text"

// InvalidInputResponses carries the shared message.
type InvalidInputResponses struct{ msg string }

func (e *InvalidInputResponses) Error() string { return e.msg }

var bodyResponseMembers = []string{"action", "content", "_meta"}

// AcceptedBody reads the continuation's input responses exactly as the client sent them (parsed, not as the
// SDK's typed InputResponseMap, which drops members it does not know).
func AcceptedBody(responses any) (string, error) {
	obj, ok := responses.(map[string]any)
	if !ok {
		return "", &InvalidInputResponses{"invalid input responses"}
	}
	if _, has := obj["body"]; !has {
		return "", &InvalidInputResponses{"missing body input response"}
	}
	if len(obj) != 1 {
		return "", &InvalidInputResponses{"unsupported input response fields"}
	}
	response, ok := obj["body"].(map[string]any)
	if !ok {
		return "", &InvalidInputResponses{NotAcceptedText}
	}
	var unsupported []string
	for name := range response {
		if !slices.Contains(bodyResponseMembers, name) {
			unsupported = append(unsupported, name)
		}
	}
	if len(unsupported) > 0 {
		slices.Sort(unsupported) // code-point order
		return "", &InvalidInputResponses{"unsupported body response fields: [" + strings.Join(unsupported, ", ") + "]"}
	}
	content, _ := response["content"].(map[string]any)
	body, textOnly := content["body"].(string)
	textOnly = textOnly && len(content) == 1
	meta, hasMeta := response["_meta"]
	if response["action"] != "accept" || (hasMeta && meta != nil) || !textOnly {
		return "", &InvalidInputResponses{NotAcceptedText}
	}
	if fingerprint.UTF16Length(body) > MaxTextLength {
		return "", &InvalidInputResponses{fmt.Sprintf("body is longer than %d characters", MaxTextLength)}
	}
	return body, nil
}

// NormalisedResponses is {"body":{"_meta":null,"action":"accept","content":{"body":<body>}}}: what the bridge binds.
func NormalisedResponses(body string) map[string]any {
	return map[string]any{"body": map[string]any{"_meta": nil, "action": "accept", "content": map[string]any{"body": body}}}
}

// IsInvalid reports whether err is one of this package's refusals.
func IsInvalid(err error) bool {
	var a *InvalidArguments
	var r *InvalidInputResponses
	return errors.As(err, &a) || errors.As(err, &r)
}
