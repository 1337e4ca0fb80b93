package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// testHomeEnv hands the tests' home to the stop processes they start.
const testHomeEnv = "LOOPHOOK_TEST_HOME"

// TestMain gives the tests a home and a cache of their own: the hook keeps
// contracts and memory in the per-user cache, and a test never touches the
// real one. The processes a test starts share its home.
func TestMain(m *testing.M) {
	home, mine := os.Getenv(testHomeEnv), false
	if home == "" {
		var err error
		if home, err = os.MkdirTemp("", "loophook-hook-test-"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		mine = true
	}
	for k, v := range map[string]string{
		testHomeEnv: home, "HOME": home,
		"XDG_CACHE_HOME": filepath.Join(home, "cache"), "XDG_CONFIG_HOME": filepath.Join(home, "config"),
	} {
		os.Setenv(k, v)
	}
	code := m.Run()
	if mine {
		os.RemoveAll(home)
	}
	os.Exit(code)
}
