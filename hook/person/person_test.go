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
