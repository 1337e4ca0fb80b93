package host

import (
	"testing"

	"github.com/loophook/loophook/criteria"
)

// A systemMessage, which a person reads in the host's own screen, carries
// no control character from the reason: the host shows it as it is.
func TestSystemMessageVisible(t *testing.T) {
	v := criteria.Verdict{OK: true, Unfinished: true, Reason: "check \"tests\" failed:\n\x1b[1A\x1b[2K\rok    tests\x1b]0;pwned\a"}
	want := "loophook: check \"tests\" failed:\n\\x1b[1A\\x1b[2K\\rok    tests\\x1b]0;pwned\\a"
	for name, answer := range map[string]any{"blockOrTell": blockOrTell(v), "continueOrTell": continueOrTell(v)} {
		m, ok := answer.(message)
		if !ok || m.SystemMessage != want {
			t.Errorf("%s: %#v, want the message %q", name, answer, want)
		}
	}
}
