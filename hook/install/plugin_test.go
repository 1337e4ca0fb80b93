package install

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPluginEnabled(t *testing.T) {
	// Each case lists the settings files lowest precedence first, as
	// user, project and local; "" is a file that does not exist.
	cases := []struct {
		name  string
		files []string
		want  int // index of the file reported, -1: not enabled
	}{
		{"no settings at all", []string{"", "", ""}, -1},
		{"no enabledPlugins", []string{`{"hooks": {}}`, `{}`, ""}, -1},
		// What `/plugin install loophook` writes (Claude Code 2.1.330).
		{"installed from the repository's marketplace", []string{"", `{"enabledPlugins": {"loophook@loophook": true}}`, ""}, 1},
		{"from another marketplace", []string{`{"enabledPlugins": {"loophook@team-tools": true}}`, "", ""}, 0},
		{"disabled", []string{`{"enabledPlugins": {"loophook@loophook": false}}`, "", ""}, -1},
		{"other plugins only", []string{`{"enabledPlugins": {"formatter@loophook": true, "loophookx@loophook": true, "x-loophook@m": true}}`, "", ""}, -1},
		{"not a plugin id", []string{`{"enabledPlugins": {"loophook": true, "loophook@": true}}`, "", ""}, -1},
		// user < project < local: the last file that names the id decides.
		{"local disables what user enables", []string{`{"enabledPlugins": {"loophook@loophook": true}}`, "", `{"enabledPlugins": {"loophook@loophook": false}}`}, -1},
		{"project enables what user disables", []string{`{"enabledPlugins": {"loophook@loophook": false}}`, `{"enabledPlugins": {"loophook@loophook": true}}`, ""}, 1},
		{"a later file that names another id decides nothing for this one", []string{`{"enabledPlugins": {"loophook@loophook": true}}`, `{"enabledPlugins": {"loophook@other": false}}`, ""}, 0},
		{"enabled twice, the file that counts most", []string{`{"enabledPlugins": {"loophook@loophook": true}}`, "", `{"enabledPlugins": {"loophook@loophook": true}}`}, 2},
		// Only true turns a marketplace plugin on; a version list is
		// accepted and leaves it off, even over a true before it.
		{"a version list", []string{`{"enabledPlugins": {"loophook@loophook": ["0.1.0"]}}`, "", ""}, -1},
		{"a version list over true", []string{`{"enabledPlugins": {"loophook@loophook": true}}`, `{"enabledPlugins": {"loophook@loophook": ["0.1.0"]}}`, ""}, -1},
		// Entries and files Claude Code ignores decide nothing.
		{"an invalid entry over true", []string{`{"enabledPlugins": {"loophook@loophook": true}}`, `{"enabledPlugins": {"loophook@loophook": "yes"}}`, ""}, 0},
		{"a file that is not JSON", []string{`{"enabledPlugins": {"loophook@loophook": true}}`, `{"enabledPlugins": {"loophook@loophook": false}`, ""}, 0},
		{"enabledPlugins not an object", []string{`{"enabledPlugins": ["loophook@loophook"]}`, "", ""}, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := make([]string, len(tc.files))
			for i, content := range tc.files {
				files[i] = filepath.Join(dir, []string{"user", "project", "local"}[i]+".json")
				if content == "" {
					continue
				}
				if err := os.WriteFile(files[i], []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			where, ok := PluginEnabled(files...)
			switch {
			case tc.want < 0 && (ok || where != ""):
				t.Errorf("pluginEnabled = %q, %v; want not enabled", where, ok)
			case tc.want >= 0 && (!ok || where != files[tc.want]):
				t.Errorf("pluginEnabled = %q, %v; want enabled in %s", where, ok, files[tc.want])
			}
		})
	}
}

func TestPluginEnabledNoFiles(t *testing.T) {
	if where, ok := PluginEnabled(); ok || where != "" {
		t.Errorf("PluginEnabled() = %q, %v; want not enabled", where, ok)
	}
}
