package checks

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestGitShWhereGitLives: Git for Windows' sh.exe is found beside the git
// on PATH, under git --exec-path, and in the folders its installer uses.
func TestGitShWhereGitLives(t *testing.T) {
	root := t.TempDir()
	sh := filepath.Join(root, "Git", "usr", "bin", "sh.exe")
	os.MkdirAll(filepath.Dir(sh), 0o755)
	os.WriteFile(sh, nil, 0o755)
	none := func(string) (string, error) { return "", errors.New("none") }
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		name     string
		env      map[string]string
		lookPath func(string) (string, error)
		execPath string
	}{
		{name: "beside git on PATH", lookPath: func(string) (string, error) { return filepath.Join(root, "Git", "cmd", "git.exe"), nil }},
		{name: "git --exec-path",
			lookPath: func(string) (string, error) { return filepath.Join(root, "elsewhere", "git.exe"), nil },
			execPath: filepath.ToSlash(filepath.Join(root, "Git", "mingw64", "libexec", "git-core")),
		},
		{name: "Program Files", env: map[string]string{"ProgramFiles": root}, lookPath: none},
		{name: "a user's install", env: map[string]string{"LOCALAPPDATA": filepath.Join(root, "x")}, lookPath: none},
	} {
		if tc.name == "a user's install" {
			user := filepath.Join(root, "x", "Programs", "Git", "bin", "sh.exe")
			os.MkdirAll(filepath.Dir(user), 0o755)
			os.WriteFile(user, nil, 0o755)
			sh = user
		}
		if got := gitSh(env(tc.env), tc.lookPath, func() string { return tc.execPath }); got != sh {
			t.Errorf("%s: gitSh = %q, want %q", tc.name, got, sh)
		}
	}
	if got := gitSh(env(nil), none, func() string { return "" }); got != "" {
		t.Errorf("no Git: gitSh = %q", got)
	}
}
