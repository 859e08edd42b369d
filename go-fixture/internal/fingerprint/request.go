package fingerprint

import (
	"slices"
	"strings"
)

// ShapeError is an input line that is not a (named) LogicalRequest; messages as LogicalRequestReader.java.
type ShapeError struct{ msg string }

func (e *ShapeError) Error() string { return e.msg }

var requestMembers = []string{"principal", "tool_id", "tool_version", "arguments", "continuation_state", "input_responses"}

// ReadName is the name of a named entry {"name", "request"}, or "", false for a plain request.
func ReadName(v any) (string, bool, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return "", false, &ShapeError{"a line must hold a JSON object"}
	}
	if _, named := obj["request"]; !named {
		return "", false, nil
	}
	if _, hasName := obj["name"]; len(obj) != 2 || !hasName {
		return "", false, &ShapeError{`a named entry must have exactly the members "name" and "request"`}
	}
	name, ok := obj["name"].(string)
	if !ok || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", false, &ShapeError{"$.name: must be a string without control characters"}
	}
	if err := RequireScalarValues(name, "$.name"); err != nil {
		return "", false, err
	}
	return name, true, nil
}

// ReadLogicalRequest checks the members of a parsed LogicalRequest.
func ReadLogicalRequest(v any) (LogicalRequest, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return LogicalRequest{}, &ShapeError{"a LogicalRequest must be a JSON object"}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys) // code-point order, so every language reports the same member
	for _, k := range keys {
		if !slices.Contains(requestMembers, k) {
			return LogicalRequest{}, &ShapeError{"$" + PathSegment(k) + ": unknown LogicalRequest member"}
		}
	}
	var r LogicalRequest
	principal, present := obj["principal"]
	if !present {
		return r, &ShapeError{"$.principal: required"}
	}
	if principal != nil {
		s, ok := principal.(string)
		if !ok {
			return r, &ShapeError{"$.principal: must be a string or null"}
		}
		r.Principal = &s
	}
	for _, field := range []struct {
		name string
		into *string
	}{{"tool_id", &r.ToolID}, {"tool_version", &r.ToolVersion}} {
		value, present := obj[field.name]
		if !present {
			return r, &ShapeError{"$." + field.name + ": required"}
		}
		s, ok := value.(string)
		if !ok {
			return r, &ShapeError{"$." + field.name + ": must be a string"}
		}
		*field.into = s
	}
	args, present := obj["arguments"]
	if !present {
		return r, &ShapeError{"$.arguments: required"}
	}
	if r.Arguments, ok = args.(map[string]any); !ok {
		return r, &ShapeError{"$.arguments: must be a JSON object"}
	}
	r.ContinuationState = obj["continuation_state"]
	r.InputResponses = obj["input_responses"]
	return r, nil
}
