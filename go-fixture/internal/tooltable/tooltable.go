// Package tooltable holds the tools the fixture lists, as vectors/rules/tools.json declares them for all four
// servers. go:embed cannot reach above the module, so the Maven build copies the table into this folder first
// (generate-resources); the binary then carries it wherever it runs, a container or a temporary copy included.
// TestTheEmbeddedCopyIsTheTable holds the copy equal to the table.
//
// A tool has name, description, inputSchema and optionally outputSchema; any other member is refused, as the other
// servers' readers refuse it, so nothing the table declares is silently left out of this server's list.
package tooltable

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
)

//go:embed tools.json
var shipped []byte

// Format is the table's format tag.
const Format = "tool-table/1"

var members = map[string]bool{"name": true, "description": true, "inputSchema": true, "outputSchema": true}

// Tool is one declaration. The schemas stay as written (member order included); OutputSchema is nil when the
// table declares none.
type Tool struct {
	Name         string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
}

// Shipped is the table embedded in the binary.
func Shipped() []byte { return shipped }

// Declarations are server's tools in the table's order. Their names must be exactly served, the tools this fixture
// has handlers for: a table that renames, adds or drops one is refused.
func Declarations(table []byte, server string, served ...string) ([]Tool, error) {
	var root map[string]json.RawMessage
	if err := json.Unmarshal(table, &root); err != nil {
		return nil, fmt.Errorf("the tool table is not a JSON object: %w", err)
	}
	var format string
	if json.Unmarshal(root["format"], &format) != nil || format != Format {
		return nil, fmt.Errorf("the tool table's format must be %q", Format)
	}
	var entries []map[string]json.RawMessage
	if raw, ok := root[server]; !ok || json.Unmarshal(raw, &entries) != nil {
		return nil, fmt.Errorf("the tool table has no %q array of objects", server)
	}
	var tools []Tool
	var names []string
	for _, entry := range entries {
		var tool Tool
		_ = json.Unmarshal(entry["name"], &tool.Name)
		for member := range entry {
			if !members[member] {
				return nil, fmt.Errorf("the tool table's %s tool %q has a member this server does not pass on: %s", server, tool.Name, member)
			}
		}
		if json.Unmarshal(entry["description"], &tool.Description) != nil || tool.Name == "" || tool.Description == "" {
			return nil, fmt.Errorf("the tool table's %s tool %q needs a non-empty name and description", server, tool.Name)
		}
		tool.InputSchema = entry["inputSchema"]
		output, hasOutput := entry["outputSchema"]
		if !isObject(tool.InputSchema) || (hasOutput && !isObject(output)) {
			return nil, fmt.Errorf("the tool table's %s needs an object inputSchema (and outputSchema, if any)", tool.Name)
		}
		if hasOutput {
			tool.OutputSchema = output
		}
		tools = append(tools, tool)
		names = append(names, tool.Name)
	}
	if !sameNames(names, served) {
		return nil, fmt.Errorf("the tool table's %s tools are %q, but this server serves %q", server, names, served)
	}
	// The SDK lists tools sorted by name whatever order they were added in, so another order would list differently
	// here than on the other servers.
	if !sort.StringsAreSorted(names) {
		return nil, fmt.Errorf("the tool table's %s tools %q are not in name order, the only order the Go SDK lists", server, names)
	}
	return tools, nil
}

func isObject(raw json.RawMessage) bool {
	trimmed := bytes.TrimSpace(raw)
	return len(trimmed) > 0 && trimmed[0] == '{'
}

func sameNames(names, served []string) bool {
	a, b := append([]string(nil), names...), append([]string(nil), served...)
	sort.Strings(a)
	sort.Strings(b)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] || (i > 0 && a[i] == a[i-1]) {
			return false
		}
	}
	return true
}
