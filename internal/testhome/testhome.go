// Package testhome gives a package's tests a home of their own: HOME, the
// user cache and the user config all point into a temporary directory made
// for the test binary, so that no test reads or writes the real ones.
package testhome

import (
	"fmt"
	"os"
	"path/filepath"
)

// M is what a TestMain runs: *testing.M, or what testscript.Main is given.
type M interface{ Run() int }

// Main runs m in a fresh home and exits with its code.
func Main(m M) { os.Exit(Wrap(m).Run()) }

// Wrap returns m whose Run first points HOME, XDG_CACHE_HOME and
// XDG_CONFIG_HOME (and Windows's USERPROFILE, LOCALAPPDATA and APPDATA)
// into a fresh temporary directory and removes it after.
// It only sets them in Run, so that a test binary re-run as a command
// (testscript.Main) keeps the environment its script gave it; a test
// binary that a test runs again as a helper process shares its parent's.
func Wrap(m M) M { return wrapped{m} }

type wrapped struct{ m M }

// rootEnv names the home's directory for the test's helper processes.
const rootEnv = "LOOPHOOK_TEST_HOME"

func (w wrapped) Run() int {
	if os.Getenv(rootEnv) != "" {
		return w.m.Run() // a helper process: the home is its parent's
	}
	root, err := os.MkdirTemp("", "loophook-test-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "testhome:", err)
		return 2
	}
	defer os.RemoveAll(root)
	os.Setenv(rootEnv, root)
	home := filepath.Join(root, "home")
	for key, dir := range map[string]string{
		"HOME":            home,
		"XDG_CACHE_HOME":  filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		// Windows's: os.UserHomeDir, UserCacheDir and UserConfigDir.
		"USERPROFILE":  home,
		"LOCALAPPDATA": filepath.Join(home, ".cache"),
		"APPDATA":      filepath.Join(home, ".config"),
	} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "testhome:", err)
			return 2
		}
		os.Setenv(key, dir)
	}
	return w.m.Run()
}
