package table

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Visible is s with every control character (C0, DEL, C1) but newline and
// tab, and every byte that is not UTF-8, written as Go escapes it: \x1b,
// \r, \a, \u009b. Text loophook did not write (a check's output, a state's
// strings, the agent's message) passes through it before a person's
// terminal, so it cannot move the cursor over what loophook printed,
// recolour it, or set the window's title (SPEC section 4).
func Visible(s string) string { return escape(s, true) }

// OneLine is Visible with newlines and tabs escaped too: for text that
// must stay on its line, or in its cell.
func OneLine(s string) string { return escape(s, false) }

func escape(s string, layout bool) string {
	shown := func(r rune) bool { return layout && (r == '\n' || r == '\t') }
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unicode.IsControl(r) && !shown(r) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case unicode.IsControl(r) && !shown(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
