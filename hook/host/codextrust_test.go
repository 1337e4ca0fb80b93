package host

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The samples were recorded with the project at /home/user/project
// (codex-cli/samples, copied to testdata/codex): config.trust.toml holds
// the hashes the interactive /hooks review wrote for hooks.json.
const sampleHooksFile = "/home/user/project/.codex/hooks.json"

func TestCodexHookHashMatchesReview(t *testing.T) {
	trusted := readTrustedHashes(t, filepath.Join("testdata", "codex", "config.trust.toml"))
	b, err := os.ReadFile(filepath.Join("testdata", "codex", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for event, groups := range file.Hooks {
		label := CodexEventLabel(event)
		for g, group := range groups {
			for h, handler := range group.Hooks {
				key := CodexTrustKey(sampleHooksFile, label, g, h)
				want, ok := trusted[key]
				if !ok {
					t.Errorf("config.trust.toml has no entry %q", key)
					continue
				}
				if got := CodexHookHash(label, handler.Command, handler.Timeout); got != want {
					t.Errorf("CodexHookHash(%q, %q, %d) = %s, the review wrote %s",
						label, handler.Command, handler.Timeout, got, want)
				}
				checked++
			}
		}
	}
	if checked != len(trusted) || checked != 2 {
		t.Errorf("checked %d hooks against %d trust entries, want 2 and 2", checked, len(trusted))
	}
}

// readTrustedHashes reads the [hooks.state."KEY"] trusted_hash entries of
// a config.toml as the review writes them: one table per hook.
func readTrustedHashes(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hashes := map[string]string{}
	var key string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, ok := strings.CutPrefix(line, `[hooks.state."`); ok {
			key = strings.TrimSuffix(k, `"]`)
			continue
		}
		if strings.HasPrefix(line, "[") {
			key = ""
			continue
		}
		if v, ok := strings.CutPrefix(line, "trusted_hash = "); ok && key != "" {
			hashes[key] = strings.Trim(v, `"`)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return hashes
}

func TestCodexHookIdentity(t *testing.T) {
	for _, tc := range []struct {
		label, command string
		timeout        int
		want           string
	}{
		{"stop", "/bin/loophook stop --protocol codex", 60,
			`{"event_name":"stop","hooks":[{"async":false,"command":"/bin/loophook stop --protocol codex","timeout":60,"type":"command"}]}`},
		// No timeout written: Codex hashes its default.
		{"session_start", "x", 0,
			`{"event_name":"session_start","hooks":[{"async":false,"command":"x","timeout":600,"type":"command"}]}`},
		// serde_json's escaping, not Go's: no \u003c for < > &, U+2028 raw,
		// short escapes and lower-case hex for control characters.
		{"stop", "\"/a b/loophook\" stop <x> & 'y'\\\t\n\r\b\f\x01\x1f\x7f\u2028é", 5,
			`{"event_name":"stop","hooks":[{"async":false,"command":"\"/a b/loophook\" stop <x> & 'y'\\\t\n\r\b\f\u0001\u001f` + "\x7f\u2028é" + `","timeout":5,"type":"command"}]}`},
	} {
		if got := string(codexHookIdentity(tc.label, tc.command, tc.timeout)); got != tc.want {
			t.Errorf("codexHookIdentity(%q, %q, %d) =\n%s\nwant\n%s", tc.label, tc.command, tc.timeout, got, tc.want)
		}
	}
}

func TestCodexEventLabel(t *testing.T) {
	for event, want := range map[string]string{
		"Stop":         "stop",
		"SessionStart": "session_start",
		"PreToolUse":   "pre_tool_use",
		"SubagentStop": "subagent_stop",
	} {
		if got := CodexEventLabel(event); got != want {
			t.Errorf("CodexEventLabel(%q) = %q, want %q", event, got, want)
		}
	}
}
