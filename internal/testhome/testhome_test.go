package testhome

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryPackageHasItsHome: every package with tests runs them through
// testhome, so that none of them reads or writes the real home. The
// end-to-end suite gives each host run a home of its own instead.
func TestEveryPackageHasItsHome(t *testing.T) {
	root := filepath.Join("..", "..")
	uses := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata" || path == filepath.Join(root, "testscripts", "e2e")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		uses[dir] = uses[dir] || strings.Contains(string(data), "testhome.")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, ok := range uses {
		if !ok && dir != "." {
			t.Errorf("%s: its tests do not run in a home of their own (add a TestMain that calls testhome.Main)", dir)
		}
	}
}

// TestWrap: Run points the home, cache and config into a fresh directory
// and removes it after.
func TestWrap(t *testing.T) {
	for _, k := range []string{"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", rootEnv} {
		t.Setenv(k, "") // restored after the test
	}
	os.Unsetenv(rootEnv)
	var seen map[string]string
	code := Wrap(runFunc(func() int {
		seen = map[string]string{}
		for _, k := range []string{"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", rootEnv} {
			seen[k] = os.Getenv(k)
		}
		return 3
	})).Run()
	if code != 3 {
		t.Errorf("Run returned %d, want 3", code)
	}
	root := seen[rootEnv]
	if root == "" || seen["HOME"] != filepath.Join(root, "home") ||
		seen["XDG_CACHE_HOME"] != filepath.Join(root, "home", ".cache") ||
		seen["XDG_CONFIG_HOME"] != filepath.Join(root, "home", ".config") {
		t.Errorf("the tests ran with %v", seen)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("%s is left behind: %v", root, err)
	}
}

type runFunc func() int

func (f runFunc) Run() int { return f() }
