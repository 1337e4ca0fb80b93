//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCodexVersionOf reads the version out of what `codex --version`
// printed, warnings and all: with HOME under /tmp Codex prints one first,
// and a harness that compared the whole output failed every Codex test.
func TestCodexVersionOf(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		out, want string
		ok        bool
	}{
		{"codex-cli 0.169.0\n", "0.169.0", true},
		{"WARNING: proceeding, even though we could not create PATH aliases: CODEX_HOME points to \"/tmp/x/.codex\", but that path does not exist\ncodex-cli 0.169.0\n", "0.169.0", true},
		{"codex-cli 0.169.0\r\n", "0.169.0", true},
		{"WARNING: something\n", "", false},
		{"", "", false},
		{"codex-cli \n", "", false},
	} {
		got, ok := codexVersionOf([]byte(c.out))
		if got != c.want || ok != c.ok {
			t.Errorf("codexVersionOf(%q) = %q, %v; want %q, %v", c.out, got, ok, c.want, c.ok)
		}
	}
}

// TestNPMEnvHasItsOwnHome: npm runs with a home, cache and logs inside the
// install's private directory, never the real home, and still reads the
// person's npm configuration.
func TestNPMEnvHasItsOwnHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("npm_config_cache", filepath.Join(home, "elsewhere"))
	t.Setenv("NPM_CONFIG_USERCONFIG", "")
	work := t.TempDir()
	env, err := npmEnv(work)
	if err != nil {
		t.Fatal(err)
	}
	get := func(key string) (vals []string) {
		for _, kv := range env {
			if k, v, _ := strings.Cut(kv, "="); strings.EqualFold(k, key) {
				vals = append(vals, v)
			}
		}
		return vals
	}
	own := filepath.Join(work, "npm-home")
	for key, want := range map[string]string{
		"HOME":                  own,
		"npm_config_cache":      filepath.Join(own, ".npm"),
		"npm_config_logs_dir":   filepath.Join(own, ".npm", "_logs"),
		"npm_config_userconfig": filepath.Join(home, ".npmrc"),
	} {
		if got := get(key); !slices.Equal(got, []string{want}) {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if left, _ := os.ReadDir(home); len(left) != 0 {
		t.Errorf("npmEnv wrote into the home: %v", left)
	}
	// install's --prefix must not lose the machine's global npmrc (where
	// a registry's certificate authority may be named).
	if out, err := exec.Command("npm", "config", "get", "globalconfig").Output(); err == nil {
		want := strings.TrimSpace(string(out))
		if got := get("npm_config_globalconfig"); !slices.Equal(got, []string{want}) {
			t.Errorf("npm_config_globalconfig = %q, want npm's own %q", got, want)
		}
	}
}
