package table

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestColourfulNotForFiles(t *testing.T) {
	var b bytes.Buffer
	if Colourful(&b) {
		t.Error("Colourful(buffer) = true")
	}
}

func TestVisible(t *testing.T) {
	for _, tc := range []struct{ in, visible, oneLine string }{
		{"ok    tests", "ok    tests", "ok    tests"},
		{"a\tb\nc", "a\tb\nc", `a\tb\nc`},
		{"FAIL\x1b[1A\x1b[2K\rok", `FAIL\x1b[1A\x1b[2K\rok`, `FAIL\x1b[1A\x1b[2K\rok`},
		{"\x1b]0;pwned\a", `\x1b]0;pwned\a`, `\x1b]0;pwned\a`},
		{"csi \u009b2J del \x7f nul \x00", `csi \u009b2J del \x7f nul \x00`, `csi \u009b2J del \x7f nul \x00`},
		{"bare \x9b byte, é and 日本", `bare \x9b byte, é and 日本`, `bare \x9b byte, é and 日本`},
	} {
		if got := Visible(tc.in); got != tc.visible {
			t.Errorf("Visible(%q) = %q, want %q", tc.in, got, tc.visible)
		}
		if got := OneLine(tc.in); got != tc.oneLine {
			t.Errorf("OneLine(%q) = %q, want %q", tc.in, got, tc.oneLine)
		}
	}
}

// Whatever the text, what Visible leaves holds no control character but
// newline and tab, and only UTF-8.
func FuzzVisible(f *testing.F) {
	f.Add("FAIL\x1b[1A\rok\x9b\u009b")
	f.Fuzz(func(t *testing.T, s string) {
		v := Visible(s)
		if !utf8.ValidString(v) || strings.ContainsFunc(v, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
			t.Fatalf("Visible(%q) = %q", s, v)
		}
	})
}
