package tooltable

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"lab.continuationreplay/gofixture/internal/repo"
)

func table(t *testing.T) []byte {
	t.Helper()
	text, err := repo.SharedRuleFile("tools.json")
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// changed is the repository's table with change applied.
func changed(t *testing.T, change func(root map[string]any)) []byte {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(table(t), &root); err != nil {
		t.Fatal(err)
	}
	change(root)
	out, _ := json.Marshal(root)
	return out
}

func TestTheEmbeddedCopyIsTheTable(t *testing.T) {
	if !bytes.Equal(Shipped(), table(t)) {
		t.Fatal("internal/tooltable/tools.json is not vectors/rules/tools.json: the Maven build copies it" +
			" (mvn -o -q -pl go-fixture generate-resources), then go build again")
	}
}

func TestTheTablesGuardedToolsAreRead(t *testing.T) {
	tools, err := Declarations(Shipped(), "guarded", "get_operation_status", "create_guarded_issue")
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 2 || tools[0].Name != "create_guarded_issue" || tools[1].Name != "get_operation_status" {
		t.Fatalf("%+v", tools)
	}
	if tools[0].OutputSchema == nil || !strings.Contains(string(tools[0].InputSchema), `"additionalProperties": false`) {
		t.Fatalf("the schemas as written: %s %s", tools[0].InputSchema, tools[0].OutputSchema)
	}
	control, err := Declarations(Shipped(), "unguarded", "create_issue")
	if err != nil || len(control) != 1 || control[0].OutputSchema != nil {
		t.Fatalf("%+v %v", control, err)
	}
}

func TestATableThatIsNotTheServedToolsIsRefused(t *testing.T) {
	tool := func(root map[string]any, i int) map[string]any { return root["guarded"].([]any)[i].(map[string]any) }
	for message, change := range map[string]func(map[string]any){
		"this server serves": func(r map[string]any) { tool(r, 1)["name"] = "get_status" },
		"serves [":           func(r map[string]any) { r["guarded"] = append(r["guarded"].([]any), tool(r, 0)) },
		"but this server":    func(r map[string]any) { r["guarded"] = r["guarded"].([]any)[:1] },
		"does not pass on: annotations": func(r map[string]any) {
			tool(r, 0)["annotations"] = map[string]any{"readOnlyHint": false}
		},
		"non-empty name and description": func(r map[string]any) { delete(tool(r, 0), "description") },
		"object inputSchema":             func(r map[string]any) { tool(r, 0)["inputSchema"] = "{}" },
		`no "guarded" array`:             func(r map[string]any) { delete(r, "guarded") },
		`format must be "tool-table/1"`:  func(r map[string]any) { r["format"] = "tool-table/2" },
		"not in name order": func(r map[string]any) {
			r["guarded"] = []any{tool(r, 1), tool(r, 0)}
		},
	} {
		if _, err := Declarations(changed(t, change), "guarded", "create_guarded_issue", "get_operation_status"); err == nil ||
			!strings.Contains(err.Error(), message) {
			t.Errorf("want an error with %q, got %v", message, err)
		}
	}
}
