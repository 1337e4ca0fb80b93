package person

import (
	"strings"
	"testing"
)

func TestAgentNamesTheMarkerSet(t *testing.T) {
	h, marker, ok := Agent(func(v string) string {
		if v == "CLAUDECODE" {
			return "1"
		}
		return ""
	})
	if !ok || marker != "CLAUDECODE" || h.Name != "claude" {
		t.Errorf("Agent = %q, %q, %v; want claude, CLAUDECODE, true", h.Name, marker, ok)
	}
	if _, _, ok := Agent(func(string) string { return "" }); ok {
		t.Error("Agent with no marker set = true")
	}
}

func TestTerminalNotForAReader(t *testing.T) {
	if Terminal(strings.NewReader("")) {
		t.Error("Terminal(a string reader) = true")
	}
}

// TestPtyName: the pipes MSYS and Cygwin hand a program as its terminal
// are known by name; other pipes are not terminals.
func TestPtyName(t *testing.T) {
	for name, want := range map[string]bool{
		`\msys-1888ae32e00d56aa-pty0-from-master`:   true,
		`\cygwin-e022582115c10879-pty3-from-master`: true,
		`\msys-1888ae32e00d56aa-pty0-to-master`:     false,
		`\msys-1888ae32e00d56aa-pipe-0x1`:           false,
		`\mypipe-pty0-from-master`:                  false,
		``:                                          false,
	} {
		if got := ptyName(name); got != want {
			t.Errorf("ptyName(%q) = %v, want %v", name, got, want)
		}
	}
}
