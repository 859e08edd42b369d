// Package ruletable reads the shared rule tables (<repository>/vectors/rules/*.json) as the Go tests see them:
// the twin of lab.continuationreplay.vectors.RuleTable and ts-fixture/test/rule-table.ts, with the same format
// rules. A case has a unique name and either "expect" (every language) or "expect_by_language" ({java,
// typescript}, two different verdicts) with a "difference"; "expand" maps a placeholder to {repeat, times}.
//
// The tables name two languages. Go is checked against "expect" where it gives that verdict, and against one of
// the two verdicts of "expect_by_language"; where Go gives another verdict, its test says so in a list of its own
// with the reason (a table change would need every language's reader changed at once).
package ruletable

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"lab.continuationreplay/gofixture/internal/fingerprint"
	"lab.continuationreplay/gofixture/internal/repo"
)

// RepositoryRoot is the repository holding vectors/rules.
func RepositoryRoot() (string, error) { return repo.Root() }

// Case is one row with its placeholders expanded.
type Case struct {
	Name string
	Row  map[string]any
	// Expected holds one verdict ("expect") or two ("java", "typescript").
	Expected   map[string]map[string]any
	Difference string
}

// Shared is the verdict every language must give, or nil when the languages differ.
func (c Case) Shared() map[string]any { return c.Expected["*"] }

// Matches reports whether got is the shared verdict or one of the per-language ones, and which.
func (c Case) Matches(got map[string]any) (string, bool) {
	for lang, want := range c.Expected {
		if reflect.DeepEqual(normalise(want), normalise(got)) {
			return lang, true
		}
	}
	return "", false
}

// normalise makes numbers comparable whatever produced them.
func normalise(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// Table is one rule file.
type Table struct {
	File  string
	Root  map[string]any
	Cases []Case
}

// Load reads vectors/rules/<file> with the exact parser (so strings with escapes arrive as the other languages
// read them) and checks the format rules.
func Load(file string) (*Table, error) {
	root, err := RepositoryRoot()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(root, "vectors", "rules", file)
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	parsed, err := fingerprint.ParseExact(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	obj, ok := parsed.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not an object", path)
	}
	t := &Table{File: path, Root: obj}
	rows, _ := obj["cases"].([]any)
	if _, has := obj["cases"]; !has {
		return t, nil
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf(`%s: "cases" must be a non-empty array`, path)
	}
	names := map[string]bool{}
	for _, raw := range rows {
		row, _ := raw.(map[string]any)
		name, _ := row["name"].(string)
		if name == "" || names[name] {
			return nil, fmt.Errorf("%s: every case needs a name of its own, not %q", path, name)
		}
		names[name] = true
		if expansions, ok := row["expand"].(map[string]any); ok {
			expanded := map[string]any{}
			for k, v := range row {
				if k == "expand" {
					expanded[k] = v
				} else {
					expanded[k] = expand(v, expansions)
				}
			}
			row = expanded
		}
		c := Case{Name: name, Row: row, Expected: map[string]map[string]any{}}
		common, hasCommon := row["expect"].(map[string]any)
		each, hasEach := row["expect_by_language"].(map[string]any)
		difference, _ := row["difference"].(string)
		switch {
		case hasCommon == hasEach:
			return nil, fmt.Errorf("%s: case %q needs exactly one of expect, expect_by_language", path, name)
		case hasCommon:
			if _, has := row["difference"]; has {
				return nil, fmt.Errorf("%s: case %q has a difference but one verdict", path, name)
			}
			c.Expected["*"] = common
		default:
			java, okJ := each["java"].(map[string]any)
			ts, okT := each["typescript"].(map[string]any)
			if !okJ || !okT || len(each) != 2 || reflect.DeepEqual(java, ts) || strings.TrimSpace(difference) == "" {
				return nil, fmt.Errorf("%s: case %q needs two different verdicts and a difference", path, name)
			}
			c.Expected["java"], c.Expected["typescript"], c.Difference = java, ts, difference
		}
		t.Cases = append(t.Cases, c)
	}
	return t, nil
}

func expand(v any, expansions map[string]any) any {
	switch x := v.(type) {
	case string:
		if how, ok := expansions[x].(map[string]any); ok {
			repeat, _ := how["repeat"].(string)
			times, _ := how["times"].(int64)
			return strings.Repeat(repeat, int(times))
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = expand(item, expansions)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, item := range x {
			out[k] = expand(item, expansions)
		}
		return out
	}
	return v
}
