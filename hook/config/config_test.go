package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loophook/loophook/internal/file"
)

// isolate gives the test its own configuration directory: no test touches
// the real home.
func isolate(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("USERPROFILE", home)
	t.Setenv("APPDATA", filepath.Join(home, ".config"))
	return t.TempDir()
}

func write(t *testing.T, dir, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, File), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const example = `{
  // run before the loop may end; all must pass
  "checks": [
    {"name": "tests", "run": "go test ./...", "criterion": "tests pass", "timeout": "5m", "exclusive": true},
    {"name": "vet", "run": "go vet ./...", "exclusive": false,},
  ],
  /* measured by loophook */
  "budget": {"tokens": 2000000, "turns": 40, "duration": "3h"},
}
`

func TestParseCommentsAndTrailingCommas(t *testing.T) {
	c, err := Parse([]byte("\xef\xbb\xbf" + example))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Checks: []Check{
			{Name: "tests", Run: "go test ./...", Criterion: "tests pass", Timeout: 5 * time.Minute, Exclusive: true},
			{Name: "vet", Run: "go vet ./...", Timeout: DefaultTimeout},
		},
		Budget: Budget{Tokens: 2000000, Turns: 40, Duration: 3 * time.Hour},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
}

func TestParseProblemsHavePointers(t *testing.T) {
	_, err := Parse([]byte(`{"checks":[{"name":"tests","timeout":"soon"}],"budget":{"turns":0}}`))
	var inv *Invalid
	if !errors.As(err, &inv) {
		t.Fatalf("got %v, want *Invalid", err)
	}
	want := []string{
		"/budget/turns: must be >= 1 but found 0",
		`/checks/0/timeout: does not match pattern '^([0-9]*[1-9][0-9]*(\\.[0-9]+)?|0*\\.[0-9]*[1-9][0-9]*)(ms|s|m|h)$'`,
		"/checks/0: missing properties: 'run'",
	}
	if !reflect.DeepEqual(inv.Problems, want) {
		t.Errorf("got %q\nwant %q", inv.Problems, want)
	}
	if _, err := Parse([]byte(`{"checks": [`)); err == nil || !strings.Contains(err.Error(), "not JSON with comments") {
		t.Errorf("a cut file: %v", err)
	}
}

func TestLoadFollowsApproval(t *testing.T) {
	top := isolate(t)
	if f := Load(top); f.State != StateNone || f.Config != nil || f.Tell() != "" {
		t.Fatalf("no file: %+v", f)
	}
	write(t, top, example)
	if f := Load(top); f.State != StateUnapproved || f.Config != nil || !strings.Contains(f.Tell(), "not approved") {
		t.Fatalf("never approved: %+v", f)
	}
	acc, err := Approve(top)
	if err != nil || !acc.First || len(acc.Changes) != 3+2 {
		t.Fatalf("approve: %+v %v", acc, err)
	}
	f := Load(top)
	if f.State != StateApproved || len(f.Checks()) != 2 || f.Tell() != "" {
		t.Fatalf("approved: %+v", f)
	}

	// The agent weakens the file: the approved version stays in force.
	write(t, top, `{"checks":[{"name":"tests","run":"true"}]}`)
	f = Load(top)
	if f.State != StateChanged || len(f.Checks()) != 2 || f.Checks()[0].Run != "go test ./..." {
		t.Fatalf("weakened: %+v", f)
	}
	for _, want := range []string{`check "tests" changed: runs "go test ./..." within 5m0s, guarding "tests pass", alone (exclusive), now runs "true" within 5m0s`, `check "vet" removed`, "budget tokens: 2000000, now no limit"} {
		if !strings.Contains(f.Tell(), want) {
			t.Errorf("the tell lacks %q: %s", want, f.Tell())
		}
	}

	write(t, top, `{"checks": [`)
	if f := Load(top); f.State != StateUnparsable || len(f.Checks()) != 2 || !strings.Contains(f.Tell(), "cannot be read") {
		t.Fatalf("unparsable: %+v", f)
	}
	if _, err := Approve(top); err == nil {
		t.Fatal("approved a file that cannot be read")
	}

	os.Remove(filepath.Join(top, File))
	if f := Load(top); f.State != StateDeleted || len(f.Checks()) != 2 || !strings.Contains(f.Tell(), "was deleted") {
		t.Fatalf("deleted: %+v", f)
	}
	// A person who wants no checks deletes the file and accepts.
	if acc, err := Approve(top); err != nil || !acc.None {
		t.Fatalf("approve none: %+v %v", acc, err)
	}
	if f := Load(top); f.State != StateNone || f.Config != nil {
		t.Fatalf("none approved: %+v", f)
	}
}

func TestApprovalIsOutsideTheProject(t *testing.T) {
	top := isolate(t)
	write(t, top, example)
	if _, err := Approve(top); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(top)
	if len(entries) != 1 {
		t.Errorf("the project holds %d files, want only %s", len(entries), File)
	}
	dir, _ := os.UserConfigDir()
	files, _ := filepath.Glob(filepath.Join(dir, "loophook", "approved", "*.json"))
	if len(files) != 1 {
		t.Errorf("approvals: %q", files)
	}
}

// TestIgnored lists the .loophook.json files between the loop and the top,
// the top's own left out, and none for a loop outside the top.
func TestIgnored(t *testing.T) {
	top := t.TempDir()
	for _, d := range []string{"", "a", filepath.Join("a", "b")} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(top, d, File), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := LoadFor(top, filepath.Join(top, "a", "b")).Ignored
	want := []string{filepath.Join(top, "a", "b", File), filepath.Join(top, "a", File)}
	if len(got) != 2 || file.PhysicalDir(filepath.Dir(got[0])) != file.PhysicalDir(filepath.Dir(want[0])) || file.PhysicalDir(filepath.Dir(got[1])) != file.PhysicalDir(filepath.Dir(want[1])) {
		t.Errorf("Ignored = %q, want %q", got, want)
	}
	for _, from := range []string{top, filepath.Dir(top)} {
		if got := LoadFor(top, from).Ignored; len(got) != 0 {
			t.Errorf("from %s: Ignored = %q, want none", from, got)
		}
	}
}

// TestDuplicateCheckNames: two checks with one name are a problem, named by
// the second one's pointer.
func TestDuplicateCheckNames(t *testing.T) {
	_, err := Parse([]byte(`{"checks": [{"name": "t", "run": "true"}, {"name": "v", "run": "true"}, {"name": "t", "run": "false"}]}`))
	var inv *Invalid
	if !errors.As(err, &inv) || len(inv.Problems) != 1 || !strings.HasPrefix(inv.Problems[0], `/checks/2/name: "t" is the name of /checks/0 too`) {
		t.Errorf("Parse = %v, want the duplicate named at /checks/2/name", err)
	}
}

// TestDiffSaysExclusive: a check that comes to run alone, or no longer
// does, is a change the person is told, as any other field is.
func TestDiffSaysExclusive(t *testing.T) {
	side := &Config{Checks: []Check{{Name: "db", Run: "make db-test", Timeout: DefaultTimeout}}}
	alone := &Config{Checks: []Check{{Name: "db", Run: "make db-test", Timeout: DefaultTimeout, Exclusive: true}}}
	want := `check "db" changed: runs "make db-test" within 5m0s, now runs "make db-test" within 5m0s, alone (exclusive)`
	if got := Diff(side, alone); !reflect.DeepEqual(got, []string{want}) {
		t.Errorf("Diff = %q, want %q", got, want)
	}
	if got := Diff(alone, side); len(got) != 1 || !strings.HasSuffix(got[0], `now runs "make db-test" within 5m0s`) {
		t.Errorf("Diff back = %q", got)
	}
}
