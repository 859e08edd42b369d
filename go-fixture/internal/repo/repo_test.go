package repo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestABridgeNotYetBuiltIsNamedAndABuiltOneGivesItsRoot(t *testing.T) {
	root := t.TempDir()
	below := filepath.Join(root, "go-fixture", "internal")
	for _, dir := range []string{filepath.Join(root, "vectors", "rules"), below, filepath.Dir(BridgeJar(root))} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := builtBridgeAbove(below); err == nil || !strings.Contains(err.Error(), BridgeJar(root)+" is missing") {
		t.Fatalf("no jar yet: %v", err)
	}
	if err := os.WriteFile(BridgeJar(root), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := builtBridgeAbove(below); err != nil || got != root {
		t.Fatalf("a built jar: %q %v", got, err)
	}
	if _, err := builtBridgeAbove(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no vectors/rules above") {
		t.Fatalf("no repository: %v", err)
	}
}
