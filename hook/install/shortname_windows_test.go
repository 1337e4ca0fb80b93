package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook/host"
)

// TestCmdLineOfAPathWithASpace: a loophook.exe under a folder with a space
// is named bare by its short name, so that a host that quotes the line
// again for cmd.exe /s /c runs it.
func TestCmdLineOfAPathWithASpace(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "Jo Doe", "loophook.exe")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	if err := os.WriteFile(bin, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if shortName(bin) == "" {
		t.Skip("this volume keeps no short names")
	}
	line := commandLine(host.Cmd, bin, "stop", "qwen")
	if strings.ContainsAny(line[:strings.Index(line, " stop")], ` "\`) {
		t.Errorf("cmd.exe's line = %s, want the short name, bare", line)
	}
}
