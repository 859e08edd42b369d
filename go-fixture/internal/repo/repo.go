// Package repo finds the repository the fixture was built in (for the shared vectors, rule tables and the
// bridge jar).
package repo

import (
	"fmt"
	"os"
	"path/filepath"
)

// RootAbove walks up from dir to the folder holding vectors/rules.
func RootAbove(dir string) (string, error) {
	for {
		if info, err := os.Stat(filepath.Join(dir, "vectors", "rules")); err == nil && info.IsDir() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no vectors/rules above %s", dir)
		}
		dir = parent
	}
}

// Root is RootAbove the working directory (go test runs in the package's folder).
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return RootAbove(dir)
}

// SharedRuleFile is one file of the repository's vectors/rules, as the tests compare the fixture with it.
func SharedRuleFile(name string) ([]byte, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(root, "vectors", "rules", name))
}

// BridgeJar is where the Maven build puts the bridge jar under the repository root.
func BridgeJar(root string) string { return filepath.Join(root, "bridge", "target", "bridge.jar") }

// BuiltBridge is Root, once its bridge jar is built: the tests that run the real bridge start from it.
func BuiltBridge() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return builtBridgeAbove(dir)
}

func builtBridgeAbove(dir string) (string, error) {
	root, err := RootAbove(dir)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(BridgeJar(root)); err != nil {
		return "", fmt.Errorf("%s is missing: build the bridge first (the Maven reactor builds it before go-fixture)", BridgeJar(root))
	}
	return root, nil
}
