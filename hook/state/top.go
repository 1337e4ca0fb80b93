package state

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/loophook/loophook/hook/refusal"
	"github.com/loophook/loophook/internal/file"
)

// WorkTree is the git work tree a climb from a directory found.
type WorkTree struct {
	// Top is the first directory upward whose .git git would accept; the
	// start directory itself when there is none (Git false).
	Top string
	Git bool
	// GitFile says Top's .git is a file naming its git directory: a
	// linked worktree's, or a submodule's.
	GitFile bool
	// Main is the root of the main work tree of a linked worktree; ""
	// when Top is none.
	Main string
}

// Climb is the one climb to the top of the git work tree that holds start
// (SPEC section 1): visit, when set, is called on each directory from
// start upward before its .git is looked at, and stops the climb by
// returning true (then Git is false). A .git counts only when git would
// accept it: a directory holding HEAD, or a regular file "gitdir: PATH"
// naming such a directory; an empty or stray .git re-roots nothing. It is
// read without a blocking open, so a named pipe there cannot hold the turn.
func Climb(start string, visit func(dir string) (stop bool)) WorkTree {
	if abs, err := filepath.Abs(start); err == nil {
		start = abs
	}
	for d := start; ; {
		if visit != nil && visit(d) {
			return WorkTree{Top: start}
		}
		if wt, ok := gitAt(d); ok {
			return wt
		}
		up := filepath.Dir(d)
		if up == d {
			return WorkTree{Top: start}
		}
		d = up
	}
}

// Top is the top of the work tree that holds start, else start itself:
// there are .loophook.json and the checks it runs.
func Top(start string) string { return Climb(start, nil).Top }

// TopFor is the top of the work tree a person's command names: that of
// dir, else of the directory of the state file named, else of the working
// directory.
func TopFor(dir, stateFile string) (string, error) {
	if dir == "" && stateFile != "" {
		dir = filepath.Dir(stateFile)
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", refusal.New("", "find the state: %v", err)
		}
		dir = wd
	}
	return Top(dir), nil
}

// maxGitFile caps a .git file: "gitdir: PATH" and a line end.
const maxGitFile = 4096

// gitAt is the work tree topped at dir, when dir holds a .git git would
// accept.
func gitAt(dir string) (WorkTree, bool) {
	dotGit := filepath.Join(dir, ".git")
	fi, err := os.Stat(dotGit)
	switch {
	case err != nil:
		return WorkTree{}, false
	case fi.IsDir():
		return WorkTree{Top: dir, Git: true}, isGitDir(dotGit)
	case !fi.Mode().IsRegular():
		return WorkTree{}, false // a named pipe, a device: never opened
	}
	data, err := file.Read(dotGit, maxGitFile)
	if err != nil {
		return WorkTree{}, false
	}
	gitdir, ok := bytes.CutPrefix(bytes.TrimSpace(data), []byte("gitdir:"))
	if !ok {
		return WorkTree{}, false
	}
	path := filepath.FromSlash(string(bytes.TrimSpace(gitdir)))
	if path == "" {
		return WorkTree{}, false
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	path = filepath.Clean(path)
	if !isGitDir(path) {
		return WorkTree{}, false
	}
	return WorkTree{Top: dir, Git: true, GitFile: true, Main: mainOf(dir, path)}, true
}

// isGitDir reports whether path is a directory holding HEAD, as git asks
// of a git directory before all else.
func isGitDir(path string) bool {
	fi, err := os.Stat(filepath.Join(path, "HEAD"))
	return err == nil && !fi.IsDir()
}

// mainOf is the root of the main work tree of the linked worktree at dir,
// whose git directory is gitdir: "<main>/.git/worktrees/<name>". "" when
// gitdir is elsewhere (a submodule's, in .git/modules, is a work tree of
// its own).
func mainOf(dir, gitdir string) string {
	worktrees := filepath.Dir(gitdir)
	common := filepath.Dir(worktrees)
	if filepath.Base(worktrees) != "worktrees" || filepath.Base(common) != ".git" {
		return ""
	}
	main := filepath.Dir(common)
	if main == dir {
		return ""
	}
	if fi, err := os.Stat(main); err != nil || !fi.IsDir() {
		return ""
	}
	return main
}

// LinkedBack reports whether the linked worktree topped at w.Top is one
// git made: its git directory's gitdir file names this tree's .git back.
// A .git file an agent writes, naming another worktree's git directory,
// is not.
func LinkedBack(w WorkTree) bool {
	if w.Main == "" {
		return false
	}
	dotGit := filepath.Join(w.Top, ".git")
	data, err := file.Read(dotGit, maxGitFile)
	if err != nil {
		return false
	}
	gitdir, ok := bytes.CutPrefix(bytes.TrimSpace(data), []byte("gitdir:"))
	if !ok {
		return false
	}
	path := filepath.FromSlash(string(bytes.TrimSpace(gitdir)))
	if !filepath.IsAbs(path) {
		path = filepath.Join(w.Top, path)
	}
	back, err := file.Read(filepath.Join(path, "gitdir"), maxGitFile)
	if err != nil {
		return false
	}
	named := filepath.FromSlash(string(bytes.TrimSpace(back)))
	if !filepath.IsAbs(named) {
		named = filepath.Join(path, named)
	}
	return file.Physical(named) == file.Physical(dotGit)
}
