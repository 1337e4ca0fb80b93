package state

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTop: the top is the first directory upward with a .git that git
// would accept; an empty or stray .git re-roots nothing.
func TestTop(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		start string
		want  string // relative to the tree
	}{
		{"outside git", map[string]string{"a/b/": ""}, "a/b", "a/b"},
		{"a .git directory with HEAD", map[string]string{".git/HEAD": "ref: refs/heads/main\n", "a/b/": ""}, "a/b", ""},
		{"an empty .git directory", map[string]string{".git/HEAD": "ref: refs/heads/main\n", "a/.git/": "", "a/b/": ""}, "a/b", ""},
		{"an empty .git file", map[string]string{".git/HEAD": "ref: refs/heads/main\n", "app/.git": "", "app/src/": ""}, "app/src", ""},
		{"a .git file naming nothing", map[string]string{".git/HEAD": "ref: refs/heads/main\n", "app/.git": "gitdir: ../nowhere\n", "app/src/": ""}, "app/src", ""},
		{"a .git file not gitdir", map[string]string{".git/HEAD": "ref: refs/heads/main\n", "app/.git": "hello\n"}, "app", ""},
		{"a linked worktree", map[string]string{"m/.git/worktrees/w/HEAD": "", "w/.git": "gitdir: $DIR/m/.git/worktrees/w\n", "w/src/": ""}, "w/src", "w"},
		{"a submodule", map[string]string{".git/modules/lib/HEAD": "", "lib/.git": "gitdir: ../.git/modules/lib\n"}, "lib", "lib"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := tree(t, c.files)
			want := filepath.Join(dir, filepath.FromSlash(c.want))
			if got := Top(filepath.Join(dir, filepath.FromSlash(c.start))); got != want {
				t.Errorf("Top = %s, want %s", got, want)
			}
		})
	}
}

// TestClimbLinked: a linked worktree's top names its main work tree.
func TestClimbLinked(t *testing.T) {
	dir := tree(t, map[string]string{"m/.git/worktrees/w/HEAD": "", "w/.git": "gitdir: $DIR/m/.git/worktrees/w\n"})
	wt := Climb(filepath.Join(dir, "w"), nil)
	if !wt.Git || !wt.GitFile || wt.Main != filepath.Join(dir, "m") {
		t.Errorf("Climb = %+v", wt)
	}
	if _, err := os.Stat(filepath.Join(dir, "m")); err != nil {
		t.Fatal(err)
	}
}
