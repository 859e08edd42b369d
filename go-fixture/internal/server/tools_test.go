package server

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"lab.continuationreplay/gofixture/internal/tooltable"
)

// listed is tools/list of an SDK server with the guarded tools registered from table (no call reaches a handler),
// as JSON values.
func listed(t *testing.T, table []byte) any {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "tool-table", Version: "0"}, nil)
	if err := (&Tools{}).RegisterFrom(s, table); err != nil {
		t.Fatal(err)
	}
	return listedFrom(t, s)
}

// listedFrom is tools/list of s, as JSON values.
func listedFrom(t *testing.T, s *mcp.Server) any {
	t.Helper()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ctx := context.Background()
	session, err := s.Connect(ctx, serverSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	client, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	result, err := client.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return jsonValue(t, result.Tools)
}

func jsonValue(t *testing.T, v any) any {
	t.Helper()
	text, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(text, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func tableTools(t *testing.T, table []byte) any {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(table, &root); err != nil {
		t.Fatal(err)
	}
	return root["guarded"]
}

func TestToolsListIsTheTablesGuardedTools(t *testing.T) {
	if got, want := listed(t, tooltable.Shipped()), tableTools(t, tooltable.Shipped()); !reflect.DeepEqual(got, want) {
		t.Fatalf("tools/list:\n%v\nthe table (vectors/rules/tools.json):\n%v", got, want)
	}
}

func TestAChangedTableChangesTheList(t *testing.T) {
	var root map[string]any
	_ = json.Unmarshal(tooltable.Shipped(), &root)
	tools := root["guarded"].([]any)
	create, status := tools[0].(map[string]any), tools[1].(map[string]any)
	create["description"] = "changed"
	create["inputSchema"].(map[string]any)["properties"].(map[string]any)["extra"] = map[string]any{"type": "string"}
	delete(status, "outputSchema")
	table, _ := json.Marshal(root)
	if got, want := listed(t, table), tableTools(t, table); !reflect.DeepEqual(got, want) {
		t.Fatalf("tools/list:\n%v\nthe changed table:\n%v", got, want)
	}
	if err := (&Tools{}).RegisterFrom(mcp.NewServer(&mcp.Implementation{Name: "x", Version: "0"}, nil), []byte(`{"format":"tool-table/1","guarded":[]}`)); err == nil {
		t.Fatal("a table without the two tools must be refused")
	}
}

func TestTheUnguardedControlListsTheTablesCreateIssue(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "tool-table", Version: "0"}, nil)
	if err := (&Tools{}).RegisterUnguarded(s); err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	_ = json.Unmarshal(tooltable.Shipped(), &root)
	if got, want := listedFrom(t, s), jsonValue(t, root["unguarded"]); !reflect.DeepEqual(got, want) {
		t.Fatalf("tools/list:\n%v\nthe table's unguarded tools:\n%v", got, want)
	}
	if err := (&Tools{}).RegisterUnguardedFrom(s, []byte(`{"format":"tool-table/1","guarded":[],"unguarded":[]}`)); err == nil {
		t.Fatal("a table without the control's tool must be refused")
	}
}
