package state

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loophook/loophook/schema"
)

// tree writes files (path → content) under a new directory and returns it.
func tree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(tb, os.MkdirAll(filepath.Dir(p), 0o755))
		if strings.HasSuffix(name, "/") {
			continue
		}
		must(tb, os.WriteFile(p, []byte(strings.ReplaceAll(content, "$DIR", dir)), 0o644))
	}
	return dir
}

func TestFindState(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		start string
		want  string // relative to the tree; "" for none
	}{
		{"nearest wins", map[string]string{".git/HEAD": "", ".loop/state.json": "{}", "a/.loop/state.json": "{}", "a/b/": ""}, "a/b", "a/.loop/state.json"},
		{"not above the work tree", map[string]string{".loop/state.json": "{}", "p/.git/HEAD": "", "p/src/": ""}, "p/src", ""},
		{"outside git, the start dir", map[string]string{".loop/state.json": "{}", "a/": ""}, "", ".loop/state.json"},
		{"outside git, not above", map[string]string{".loop/state.json": "{}", "a/": ""}, "a", ""},
		{"linked worktree goes on to its main tree",
			map[string]string{"m/.git/worktrees/w/HEAD": "", "m/loop-state.json": `{"currentPhase":"PLAN"}`, "m/.worktrees/w/.git": "gitdir: $DIR/m/.git/worktrees/w\n", "m/.worktrees/w/src/": ""},
			"m/.worktrees/w/src", "m/loop-state.json"},
		{"relative gitdir",
			map[string]string{"m/.git/worktrees/w/HEAD": "", "m/loop-state.json": `{"currentPhase":"PLAN"}`, "m/.worktrees/w/.git": "gitdir: ../../.git/worktrees/w"},
			"m/.worktrees/w", "m/loop-state.json"},
		{"a submodule is a tree of its own",
			map[string]string{"m/.git/modules/lib/HEAD": "", "m/.loop/state.json": "{}", "m/lib/.git": "gitdir: ../.git/modules/lib"},
			"m/lib", ""},
		{"not an orchestrator's loop-state.json",
			map[string]string{".git/HEAD": "", "loop-state.json": `{"x":1}`, ".on-loop/sessions/20260101_000000_a/state.json": `{"phase":"INIT"}`},
			"", ".on-loop/sessions/20260101_000000_a/state.json"},
		{"greatest session",
			map[string]string{".git/HEAD": "", ".on-loop/sessions/20260101_000000_b/state.json": "{}", ".on-loop/sessions/20260102_000000_a/state.json": "{}", ".on-loop/sessions/20260103_000000_c/": ""},
			"", ".on-loop/sessions/20260102_000000_a/state.json"},
		{"latest updatedAt, missing is oldest, ties to the greatest name",
			map[string]string{".git/HEAD": "",
				"domain-memory/a/loop-state.json": `{"updatedAt":"2024-01-02T00:00:00Z"}`,
				"domain-memory/b/loop-state.json": `{"updatedAt":"2024-01-02T00:00:00Z"}`,
				"domain-memory/c/loop-state.json": `{"updatedAt":"2024-01-01T00:00:00Z"}`,
				"domain-memory/d/loop-state.json": `{}`,
				"domain-memory/e/loop-state.json": `{"updatedAt":"not a time"}`},
			"", "domain-memory/b/loop-state.json"},
		{"all without updatedAt: the greatest name",
			map[string]string{".git/HEAD": "", "domain-memory/a/loop-state.json": `{}`, "domain-memory/b/loop-state.json": `[`},
			"", "domain-memory/b/loop-state.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := tree(t, c.files)
			f := Find(filepath.Join(dir, filepath.FromSlash(c.start)), nil)
			want := ""
			if c.want != "" {
				want = filepath.Join(dir, filepath.FromSlash(c.want))
			}
			if f.Path != want {
				t.Errorf("found %q, want %q", f.Path, want)
			}
		})
	}
}

// --dialect: only that dialect's file, and a shared name taken as its own.
func TestFindStateOnly(t *testing.T) {
	dir := tree(t, map[string]string{".git/HEAD": "", ".loop/state.json": "{}", "loop-state.json": `{"x":1}`})
	orchestrator, err := schema.Lookup("orchestrator")
	must(t, err)
	f := Find(dir, &orchestrator)
	if f.Path != filepath.Join(dir, "loop-state.json") || f.Dialect.Name != "orchestrator" {
		t.Errorf("found %q (%s)", f.Path, f.Dialect.Name)
	}
	onLoop, err := schema.Lookup("on-loop")
	must(t, err)
	if f := Find(dir, &onLoop); f.Path != "" {
		t.Errorf("found %q", f.Path)
	}
}

// BenchmarkFindNothing is the search from 30 levels down a work tree that
// holds no loop: every directory to the top is looked in for every dialect.
func BenchmarkFindNothing(b *testing.B) {
	dir := b.TempDir()
	must(b, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	must(b, os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	deep := dir
	for i := range 30 {
		deep = filepath.Join(deep, strings.Repeat(string(rune('a'+i%26)), 8))
		// A large work tree: many neighbours at every level.
		for j := range 20 {
			must(b, os.MkdirAll(filepath.Join(deep, "..", "sibling"+string(rune('a'+j))), 0o755))
		}
	}
	must(b, os.MkdirAll(deep, 0o755))
	b.ReportAllocs()
	for b.Loop() {
		if f := Find(deep, nil); f.Path != "" {
			b.Fatal(f.Path)
		}
	}
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
