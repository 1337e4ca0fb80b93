package usage

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// nextMarked finds, for every format's marker (a brace's search or the
// last five bytes'), the lines a plain search finds, among lines made of
// the marker's pieces.
func TestNextMarkedEveryFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range []Format{Claude, Codex, Gemini, Copilot, Qwen, Pi} {
		m := f.Marker
		frags := [][]byte{m, m[:len(m)/2], m[len(m)/2:], m[1:], m[:len(m)-1], []byte("\n"), []byte("x"), []byte("{"), []byte(`"`), m[len(m)-1:]}
		for range 20000 {
			var b []byte
			for range rng.IntN(12) {
				b = append(b, frags[rng.IntN(len(frags))]...)
			}
			var want [][]byte
			for _, l := range bytes.SplitAfter(b, []byte("\n")) {
				if bytes.Contains(l, m) {
					want = append(want, l)
				}
			}
			var got [][]byte
			for lines := b; ; {
				line, rest, ok := nextMarked(lines, m)
				if !ok {
					break
				}
				got = append(got, line)
				lines = rest
			}
			if len(got) != len(want) {
				t.Fatalf("%s %q: %q want %q", f.Name, b, got, want)
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("%s %q: %q want %q", f.Name, b, got, want)
				}
			}
		}
	}
}

// lastNewline is bytes.LastIndexByte, also by bytes a word's search may
// take for a newline.
func TestLastNewline(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{'\n', 0x0b, 0x09, 0x8a, 0x0a ^ 0x80, 0, 0xff, 'a', 0x01}
	for range 200000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(4) != 0 && b[i] == '\n' {
				b[i] = 'z'
			}
		}
		if got, want := lastNewline(b), bytes.LastIndexByte(b, '\n'); got != want {
			t.Fatalf("%q: %d want %d", b, got, want)
		}
	}
}
