package guarded

import (
	"testing"

	"lab.continuationreplay/gofixture/internal/fingerprint"

	"lab.continuationreplay/gofixture/internal/ruletable"
)

func load(t *testing.T, file string) *ruletable.Table {
	t.Helper()
	table, err := ruletable.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 30 {
		t.Fatalf("%s: only %d cases", file, len(table.Cases))
	}
	return table
}

func TestGuardedArgumentsTable(t *testing.T) {
	for _, c := range load(t, "guarded-arguments.json").Cases {
		args, err := ReadArguments(c.Row["arguments"].(map[string]any))
		got := map[string]any{}
		if err != nil {
			got["error"] = err.Error()
		} else {
			got["accepted"] = map[string]any{"operation_id": args.OperationID, "title": args.Title, "mode": args.Mode}
		}
		lang, ok := c.Matches(got)
		if !ok {
			t.Errorf("%s: got %v, want %v", c.Name, got, c.Expected)
		}
		// Where Java and TypeScript differ (a JSON null mode), Go takes TypeScript's verdict.
		if lang == "java" {
			t.Errorf("%s: Go gave Java's verdict, not TypeScript's", c.Name)
		}
	}
}

func TestInputResponsesTable(t *testing.T) {
	for _, c := range load(t, "input-responses.json").Cases {
		body, err := AcceptedBody(c.Row["responses"])
		got := map[string]any{}
		if err != nil {
			got["error"] = err.Error()
		} else {
			got["body"] = body
		}
		if lang, ok := c.Matches(got); !ok || lang != "*" {
			t.Errorf("%s: got %.200v, want %.200v", c.Name, got, c.Expected)
		}
	}
}

func TestDigestBindsTheThreeArgumentsOnly(t *testing.T) {
	a, _ := Digest(map[string]any{"operation_id": "op", "title": "t"})
	b, _ := Digest(map[string]any{"operation_id": "op", "title": "t", "mode": "atomic", "extra": 1})
	c, _ := Digest(map[string]any{"operation_id": "op", "title": "t", "mode": "partial"})
	d, _ := Digest(map[string]any{"operation_id": "op", "title": "t2"})
	if a != b || a == c || a == d || len(a) != 64 {
		t.Fatalf("%s %s %s %s", a, b, c, d)
	}
	// As the TypeScript fixture's argumentsDigest: SHA-256 of the canonical text of the three members.
	if a != fingerprint.SHA256Hex(`{"mode":"atomic","operation_id":"op","title":"t"}`) {
		t.Fatal("not the digest of the canonical text")
	}
	if DigestOf(Arguments{"op", "t", "atomic"}) != a {
		t.Fatal("DigestOf differs")
	}
}
