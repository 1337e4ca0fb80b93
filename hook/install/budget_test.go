package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/host"
)

// install --host warns when the file asks for a token budget that the host
// cannot measure; every host of today records its usage, so the warning is
// held to a host row without it.
func TestTokensUnrecordedWarns(t *testing.T) {
	dir := t.TempDir()
	h, err := host.Lookup("gemini")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, config.File), []byte(`{"budget": {"tokens": 10, "turns": 3}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := tokensUnrecorded(h, dir); n != "" {
		t.Errorf("Gemini CLI records usage, yet: %s", n)
	}
	h.Usage = nil
	if n := tokensUnrecorded(h, dir); !strings.Contains(n, "Gemini CLI records no token usage") {
		t.Errorf("no warning for a host without usage: %q", n)
	}
	if err := os.WriteFile(filepath.Join(dir, config.File), []byte(`{"budget": {"turns": 3}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := tokensUnrecorded(h, dir); n != "" {
		t.Errorf("a warning with no token budget: %s", n)
	}
}
