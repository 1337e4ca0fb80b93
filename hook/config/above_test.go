package config

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestApprovedAbove finds the nearest approval of a work tree's top at or
// above a directory, one of having no file too, among the approvals of
// many other trees; not one made outside git.
func TestApprovedAbove(t *testing.T) {
	top := isolate(t)
	deep := filepath.Join(top, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := ApprovedAbove(deep, ""); got != "" {
		t.Fatalf("no approval: %q", got)
	}
	others(t, 50)
	if got := ApprovedAbove(deep, ""); got != "" {
		t.Fatalf("only other trees' approvals: %q", got)
	}
	write(t, top, example)
	// Approved outside git, its rules are those of loops started in top.
	if _, err := Approve(top); err != nil {
		t.Fatal(err)
	}
	if got := ApprovedAbove(deep, ""); got != "" {
		t.Fatalf("an approval outside git above: %q", got)
	}
	if got := ApprovedAbove(deep, top); got != top {
		t.Fatalf("an approval outside git of the loop's own start: %q", got)
	}
	if err := os.Mkdir(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Made a repository since: it is a work tree's top.
	if got := ApprovedAbove(deep, ""); got != top {
		t.Fatalf("an approval outside git, a repository since: %q", got)
	}
	write(t, top, example+" ")
	if _, err := Approve(top); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{top, filepath.Join(top, "a"), deep} {
		if got := ApprovedAbove(dir, ""); got != top {
			t.Errorf("from %s: %q, want %q", dir, got, top)
		}
	}
	// Nearer, a person approved having no file.
	if err := writeApproval(Approval{Path: filepath.Join(top, "a", File), None: true}); err != nil {
		t.Fatal(err)
	}
	if got := ApprovedAbove(deep, ""); got != filepath.Join(top, "a") {
		t.Errorf("nearer approval of none: %q", got)
	}
	if got := ApprovedAbove(filepath.Dir(top), ""); got != "" {
		t.Errorf("above every approval: %q", got)
	}
}

// TestAppendApprovalName names the file approvalName names, at the root
// too.
func TestAppendApprovalName(t *testing.T) {
	for _, dir := range []string{string(filepath.Separator), filepath.Join(string(filepath.Separator), "home", "u", "p"), t.TempDir()} {
		if got, want := string(appendApprovalName(nil, dir)), approvalName(filepath.Join(dir, File)); got != want {
			t.Errorf("%s: %s, want %s", dir, got, want)
		}
	}
	// The names approvals kept since before have: 16 hex digits, .json.
	for _, h := range []uint64{0, 1, 0xabcdef, 1<<64 - 1} {
		if got, want := string(appendName(nil, h)), fmt.Sprintf("%016x.json", h); got != want {
			t.Errorf("%x: %s, want %s", h, got, want)
		}
	}
}

// others keeps the approvals of n other trees' files.
func others(t testing.TB, n int) {
	for i := range n {
		if err := writeApproval(Approval{Path: filepath.Join(string(filepath.Separator), "elsewhere", fmt.Sprint(i), File), Text: "{}"}); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkApprovedAbove is a stop's look for an approval 30 levels deep,
// where none is, with a person's 1000 approvals of other trees kept: its
// cost is the depth, not the approvals.
func BenchmarkApprovedAbove(b *testing.B) {
	top := isolate(b)
	deep := top
	for i := range 30 {
		deep = filepath.Join(deep, fmt.Sprint(i))
	}
	others(b, 1000)
	for b.Loop() {
		ApprovedAbove(deep, "")
	}
}
