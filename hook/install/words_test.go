package install

import (
	"os"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook/host"
)

// A dry run names each change an install or uninstall of every host makes
// as one to be done: its verb is one doing knows.
func TestPlannedNamesEveryChange(t *testing.T) {
	if got, want := strings.Join(planned([]string{"added the Stop hook", "withdrew the trust"}), ", "), "add the Stop hook, withdraw the trust"; got != want {
		t.Errorf("planned = %q, want %q", got, want)
	}
	for _, h := range host.Installable() {
		wd := t.TempDir()
		if err := os.Mkdir(wd+"/.git", 0o755); err != nil {
			t.Fatal(err)
		}
		for _, uninstall := range []bool{false, true} {
			p, err := prepare(request{Host: h, Scope: "project", Wd: wd, Bin: "/opt/loophook", Uninstall: uninstall})
			if err != nil {
				t.Fatalf("%s: %v", h.Name, err)
			}
			changes := p.File.Changes
			if p.Trust != nil {
				changes = append(changes, p.Trust.Changes...)
			}
			if len(changes) == 0 {
				t.Errorf("%s (uninstall %v): no changes", h.Name, uninstall)
			}
			for _, c := range changes {
				if verb, _, _ := strings.Cut(c, " "); doing[verb] == "" {
					t.Errorf("%s: the change %q starts with no verb a dry run knows", h.Name, c)
				}
			}
			if err := p.Write(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
