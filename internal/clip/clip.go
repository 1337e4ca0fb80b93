// Package clip cuts text to a length in bytes without cutting a character
// in two: a character cut in two would reach a person as U+FFFD.
package clip

import "unicode/utf8"

// Ellipsis marks where text was cut.
const Ellipsis = "…"

// Clip is s when it is at most n bytes, else its first n bytes or fewer,
// up to the start of a character, and Ellipsis.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + Ellipsis
}
