package driver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The shared client-script table: every driver runs its cases through its own parser, so a refusal worded or
// ordered differently in one of them fails its own suite.
const rulesFile = "client-script.json"

type rulesTable struct {
	Format      string            `json:"format"`
	Environment map[string]string `json:"environment"`
	Base        map[string]any    `json:"base"`
	Cases       []map[string]any  `json:"cases"`
}

// loadRules finds <repository>/vectors/rules above the package folder (go test runs there); a missing table fails.
func loadRules(t *testing.T) *rulesTable {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		path := filepath.Join(dir, "vectors", "rules", rulesFile)
		if text, err := os.ReadFile(path); err == nil {
			decoder := json.NewDecoder(bytes.NewReader(text))
			decoder.UseNumber() // numbers go back into the script exactly as the table spells them
			table := &rulesTable{}
			if err := decoder.Decode(table); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			return table
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no vectors/rules/%s above the working directory", rulesFile)
		}
		dir = parent
	}
}

// deepCopy through JSON keeps json.Number values as they are.
func deepCopy(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	decoder := json.NewDecoder(bytes.NewReader(b))
	decoder.UseNumber()
	var out any
	if err := decoder.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func scriptText(t *testing.T, table *rulesTable, c map[string]any) []byte {
	t.Helper()
	if text, ok := c["text"].(string); ok {
		return []byte(text)
	}
	document := deepCopy(t, table.Base).(map[string]any)
	if set, ok := c["set"].(map[string]any); ok {
		for name, value := range set {
			document[name] = value
		}
	}
	if remove, ok := c["remove"].([]any); ok {
		for _, name := range remove {
			delete(document, name.(string))
		}
	}
	if steps, ok := c["steps"]; ok {
		document["steps"] = steps
	}
	b, err := json.Marshal(document)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recordedSteps is "<step> <op>" for every step that gets a record: a parallel step's inner steps, not itself.
func recordedSteps(script *Script) []any {
	out := []any{}
	for _, top := range script.Steps {
		for _, step := range top.Steps {
			out = append(out, fmt.Sprintf("%v %s", step.ID, step.Op))
		}
	}
	return out
}

func TestClientScriptTable(t *testing.T) {
	table := loadRules(t)
	if table.Format != "client-script-rules/1" || len(table.Cases) < 100 {
		t.Fatalf("%s: format %q, %d cases", rulesFile, table.Format, len(table.Cases))
	}
	lookup := func(name string) (string, bool) { v, ok := table.Environment[name]; return v, ok }
	seen := map[string]bool{}
	for _, c := range table.Cases {
		id, _ := c["id"].(string)
		if id == "" || seen[id] {
			t.Fatalf("every case needs an id of its own, not %q", id)
		}
		seen[id] = true
		expect, _ := c["expect"].(map[string]any)
		if len(expect) != 1 {
			t.Fatalf("%s: expect must hold exactly one verdict", id)
		}
		t.Run(id, func(t *testing.T) {
			script, err := Parse(scriptText(t, table, c), lookup)
			if accepted, ok := expect["accepted"]; ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got := recordedSteps(script); !reflect.DeepEqual(got, accepted) {
					t.Fatalf("steps %v, want %v", got, accepted)
				}
				return
			}
			var refused *ScriptError
			if !errors.As(err, &refused) {
				t.Fatalf("not refused with a ScriptError: %v", err)
			}
			if want, ok := expect["error"].(string); ok {
				if refused.Line != want {
					t.Fatalf("got  %s\nwant %s", refused.Line, want)
				}
			} else if start, ok := expect["error_starts"].(string); !ok {
				t.Fatalf("unknown verdict %v", expect)
			} else if !strings.HasPrefix(refused.Line, start) || strings.Contains(refused.Line, "\n") {
				t.Fatalf("got %q, want a line starting %q", refused.Line, start)
			}
		})
	}
}
