package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/hook/hostfile"
)

// winBin is where a person put loophook.exe on Windows: a path with a
// space, as under Program Files, and with none.
const (
	winBin      = `C:\Users\me\bin\loophook.exe`
	winBinSpace = `C:\Users\Jo Doe\bin\loophook.exe`
)

// TestWindowsRegistration: on Windows each host's Stop handler is written in
// the form its shell there runs, exactly: Claude Code's exec form, Codex's
// commandWindows for cmd.exe, Copilot's powershell key, PowerShell's call
// operator for Gemini, a line both cmd.exe and Git Bash read for Qwen, and
// sh's for Factory Droid, which runs sh there too. A second install
// changes nothing, and uninstall takes each back.
func TestWindowsRegistration(t *testing.T) {
	defer func(was bool) { onWindows = was }(onWindows)
	onWindows = true
	want := map[string]map[string]any{
		"claude":  {"command": winBin, "args": []any{"stop", "--protocol", "claude"}},
		"codex":   {"command": `'C:\Users\me\bin\loophook.exe' stop --protocol codex`, "commandWindows": `C:/Users/me/bin/loophook.exe stop --protocol codex`},
		"copilot": {"bash": `'C:\Users\me\bin\loophook.exe' stop --protocol copilot`, "powershell": `& 'C:\Users\me\bin\loophook.exe' stop --protocol copilot`},
		"gemini":  {"command": `& 'C:\Users\me\bin\loophook.exe' stop --protocol gemini`},
		"qwen":    {"command": `C:/Users/me/bin/loophook.exe stop --protocol qwen`},
		"droid":   {"command": `'C:\Users\me\bin\loophook.exe' stop --protocol droid`},
	}
	for _, h := range host.Installable() {
		w, ok := want[h.Name]
		if !ok {
			continue // a host added since: its form is its own test's
		}
		wd := t.TempDir()
		if err := os.Mkdir(filepath.Join(wd, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		p := installedAs(t, h, wd, winBin, false)
		got := stopHandler(t, h, p.File.After)
		for k, v := range w {
			if b, _ := json.Marshal(got[k]); string(b) != mustJSON(v) {
				t.Errorf("%s: %s = %s, want %s", h.Name, k, b, mustJSON(v))
			}
		}
		if again := installedAs(t, h, wd, winBin, false); len(again.File.Changes) != 0 {
			t.Errorf("%s: a second install changes %q", h.Name, again.File.Changes)
		}
		if gone := installedAs(t, h, wd, winBin, true); len(gone.File.Changes) == 0 || hasOurs(h.Install, parse(t, h, gone.File.After), winBin) {
			t.Errorf("%s: uninstall left loophook's hooks: %s", h.Name, gone.File.After)
		}
	}
}

// TestWindowsFormsOfAPath: a path with a space is quoted for cmd.exe and
// bash alike; an exec form or a line written before (in Git Bash's form)
// is recognised, and the line becomes Claude Code's exec form.
func TestWindowsFormsOfAPath(t *testing.T) {
	defer func(was bool) { onWindows = was }(onWindows)
	onWindows = true
	if got, want := commandLine(host.Cmd, winBinSpace, "stop", "qwen"), `"C:/Users/Jo Doe/bin/loophook.exe" stop --protocol qwen`; got != want {
		t.Errorf("cmd.exe's line = %s, want %s", got, want)
	}
	if got, want := commandLine(host.PowerShell, `C:\it's\loophook.exe`, "stop", "gemini"), `& 'C:\it''s\loophook.exe' stop --protocol gemini`; got != want {
		t.Errorf("PowerShell's line = %s, want %s", got, want)
	}
	claude, _ := host.Lookup("claude")
	wd := t.TempDir()
	os.Mkdir(filepath.Join(wd, ".git"), 0o755)
	file := filepath.Join(wd, ".claude", "settings.json")
	os.Mkdir(filepath.Dir(file), 0o755)
	old := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "'C:\\Users\\me\\bin\\loophook.exe' stop --protocol claude --guard-limit 4"}]}]}}`
	if err := os.WriteFile(file, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	p := installedAs(t, claude, wd, winBin, false)
	got := stopHandler(t, claude, p.File.After)
	if b, _ := json.Marshal(got["args"]); string(b) != `["stop","--protocol","claude","--guard-limit","4"]` || got["command"] != winBin {
		t.Errorf("Git Bash's line became %s", p.File.After)
	}
	if !slices.Contains(p.File.Changes, changeExecForm("Stop")) {
		t.Errorf("changes %q do not say the exec form", p.File.Changes)
	}
}

// installedAs plans and writes an install (or uninstall) of bin for h in wd.
func installedAs(t *testing.T, h host.Host, wd, bin string, uninstall bool) *Plan {
	t.Helper()
	p, err := prepare(request{Host: h, Scope: "project", Wd: wd, Bin: bin, Uninstall: uninstall})
	if err != nil {
		t.Fatalf("%s: %v", h.Name, err)
	}
	if err := p.Write(); err != nil {
		t.Fatal(err)
	}
	return p
}

func parse(t *testing.T, h host.Host, data []byte) *hostfile.JSON {
	t.Helper()
	doc, err := hostfile.ParseJSON(data, h.Install.Comments)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// stopHandler is loophook's handler of a host's first event in a file.
func stopHandler(t *testing.T, h host.Host, data []byte) map[string]any {
	t.Helper()
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatalf("%s: %v\n%s", h.Name, err, data)
	}
	hooks := top
	if !h.Install.TopLevelEvents {
		hooks, _ = top["hooks"].(map[string]any)
	}
	list, _ := hooks[h.Install.Events[0].Name].([]any)
	if len(list) != 1 {
		t.Fatalf("%s: %d entries: %s", h.Name, len(list), data)
	}
	e, _ := list[0].(map[string]any)
	if h.Install.Grouped {
		inner, _ := e["hooks"].([]any)
		e, _ = inner[0].(map[string]any)
	}
	return e
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return strings.TrimSpace(string(b))
}
