package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 5, "short"},
		{"longer", 3, "lon…"},
		{"aé", 2, "a…"}, // é is two bytes: not cut in two
		{"雪雪", 4, "雪…"}, // three bytes each
		{"🎉x", 3, "…"},  // a four-byte character, nothing before it
		{"", 0, ""},
	} {
		if got := Clip(tc.s, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func FuzzClip(f *testing.F) {
	f.Add("aé雪🎉", 3)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || !utf8.ValidString(s) {
			return
		}
		got := Clip(s, n)
		if len(s) <= n {
			if got != s {
				t.Fatalf("Clip(%q, %d) = %q, want it whole", s, n, got)
			}
			return
		}
		kept := strings.TrimSuffix(got, Ellipsis)
		if !utf8.ValidString(got) || len(kept) > n || !strings.HasPrefix(s, kept) || len(kept) < n-utf8.UTFMax+1 {
			t.Fatalf("Clip(%q, %d) = %q", s, n, got)
		}
	})
}
