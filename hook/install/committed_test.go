package install

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/handler"
	"github.com/loophook/loophook/hook/host"
)

// TestGuardRunsLoophookOrStaysQuiet runs each host's committed lines in
// sh: where loophook is on PATH they run it, with its arguments; where it
// is not, a stop says nothing and lets the agent stop, and a session start
// tells the person once, in the member the host shows them.
func TestGuardRunsLoophookOrStaysQuiet(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the guard is sh's")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	empty, bin := t.TempDir(), t.TempDir()
	fake := "#!/bin/sh\necho \"ran $*\"\n"
	if err := os.WriteFile(filepath.Join(bin, "loophook"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(line, path string) (string, string) {
		cmd := exec.Command(sh, "-c", line)
		cmd.Env = []string{"PATH=" + path}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", line, err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	for _, h := range host.Installable() {
		if h.Install.Extension != nil {
			continue
		}
		for _, ev := range h.Install.Events {
			line := guarded(commandLine(host.Sh, pathProgram, ev.Command, h.Name), pathProgram, ev, h.Tells)
			if out, _ := run(line, bin); out != "ran "+ev.Command+" --protocol "+h.Name+"\n" {
				t.Errorf("%s %s with loophook: stdout %q", h.Name, ev.Name, out)
			}
			out, errOut := run(line, empty)
			switch {
			case ev.Command == "stop" && (out != "" || errOut != ""):
				t.Errorf("%s %s without loophook: %q, %q; want nothing", h.Name, ev.Name, out, errOut)
			case ev.Command == "stop":
			case h.Tells != "":
				var answer map[string]string
				if err := json.Unmarshal([]byte(out), &answer); err != nil || answer[h.Tells] != noticeMissing || len(answer) != 1 {
					t.Errorf("%s %s without loophook: %q (%v); want the notice in %s", h.Name, ev.Name, out, err, h.Tells)
				}
			case out != "" || !strings.Contains(errOut, noticeMissing):
				t.Errorf("%s %s without loophook: %q, %q; want the notice on stderr", h.Name, ev.Name, out, errOut)
			}
			if c, ok := handler.Parse(line, pathProgram, ev.Command); !ok || c.Prog.Text != pathProgram {
				t.Errorf("%s %s: the guarded line is not recognised as loophook's", h.Name, ev.Name)
			}
		}
	}
	if strings.ContainsAny(noticeMissing, "'\"\\$;") {
		t.Errorf("the notice must sit in a single-quoted JSON string: %q", noticeMissing)
	}
}

// TestPathNote: install tells the person when PATH has no loophook, or
// another one than the binary installing.
func TestPathNote(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	if n := pathNote(self); !strings.Contains(n, "PATH here has none") {
		t.Errorf("no loophook on PATH: %q", n)
	}
	other := t.TempDir()
	name := "loophook" // as PATH finds it: loophook.exe on Windows
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if err := os.WriteFile(filepath.Join(other, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", other)
	if n := pathNote(self); !strings.Contains(n, "not this one") {
		t.Errorf("another loophook on PATH: %q", n)
	}
	if err := os.Symlink(self, filepath.Join(other, "loophook2")); err == nil && readable(filepath.Join(other, "loophook2")) {
		os.Rename(filepath.Join(other, "loophook2"), filepath.Join(other, name))
		if n := pathNote(self); n != "" {
			t.Errorf("this loophook on PATH: %q", n)
		}
	}
}

// TestExtensionTellsMissing: an extension host's project file (Pi's), which
// runs loophook from PATH, tells a teammate without it what the guard of
// the other hosts' committed files tells, word for word.
func TestExtensionTellsMissing(t *testing.T) {
	for _, h := range host.Installable() {
		if ext := h.Install.Extension; ext != nil && !strings.Contains(string(ext.Bytes(pathProgram)), `"`+hook.Prefix+noticeMissing+`"`) {
			t.Errorf("%s: the extension does not say %q", h.Name, noticeMissing)
		}
	}
}

// readable reports whether a link made can be followed (Wine's cannot).
func readable(link string) bool {
	_, err := os.Stat(link)
	return err == nil
}
