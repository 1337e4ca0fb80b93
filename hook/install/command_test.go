package install

import (
	"testing"

	"github.com/loophook/loophook/hook/host"
)

// TestRepointedKeepsAPersonsLine: a person's line for loophook's hook is
// pointed at bin with the host's protocol, the rest kept as written.
func TestRepointedKeepsAPersonsLine(t *testing.T) {
	line, moved := repointed(host.Sh, `cd /srv/app && env X=1 loophook stop --guard-limit 4`, "/opt/lh", "stop", "codex")
	if want := `cd /srv/app && env X=1 /opt/lh stop --protocol codex --guard-limit 4`; line != want || !moved {
		t.Errorf("repointed = %q, %v; want %q", line, moved, want)
	}
}
