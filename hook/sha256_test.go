package hook

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

func TestSum256IsCryptoSHA256(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// Every length across the padding's edges (55, 56, 63, 64, ...) and a
	// few blocks beyond.
	for n := range 300 {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		if got, want := sum256(data), sha256.Sum256(data); got != want {
			t.Fatalf("sum256 of %d bytes = %x, crypto/sha256 says %x", n, got, want)
		}
	}
	// FIPS 180-4's own example.
	if got := sum256([]byte("abc")); got != sha256.Sum256([]byte("abc")) || got[0] != 0xba || got[31] != 0xad {
		t.Fatalf(`sum256("abc") = %x`, got)
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte("/home/me/project/.loop/state.json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := sum256(data), sha256.Sum256(data); got != want {
			t.Fatalf("sum256(%q) = %x, crypto/sha256 says %x", data, got, want)
		}
	})
}
