package checks

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// tick is longer than the file system clock's step (4 ms at 250 Hz, 10 ms
// at 100 Hz), so that two edits a tick apart get two change times.
const tick = 15 * time.Millisecond

// editTree is a small work tree for FuzzFingerprint: two tracked files, an
// ignored one, and a nested repository git does not track.
func editTree(t *testing.T) string {
	dir := t.TempDir()
	if _, err := exec.LookPath("git"); err != nil && runtime.GOOS == "windows" {
		t.Skip("no git on PATH: Wine has no Git for Windows")
	}
	git := func(dir string, args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for name, content := range map[string]string{
		"a.go": "package a\n", "lib/b.go": "package lib\n", ".gitignore": "*.log\n",
		"build.log": "ignored\n", "crate/src/lib.rs": "fn f() {}\n",
	} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(content), 0o644)
	}
	git(dir, "init", "-q")
	git(dir, "add", "a.go", "lib/b.go", ".gitignore")
	git(dir, "commit", "-qm", "one")
	git(filepath.Join(dir, "crate"), "init", "-q")
	return dir
}

// contents is every file of the tree git does not ignore, and what it
// holds: what a check could read.
func contents(t *testing.T, dir string) string {
	files := map[string]string{}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir() || strings.HasSuffix(path, ".log"):
			return nil
		}
		b, _ := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = d.Type().String() + string(b)
		return nil
	})
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(&b, "%s\x00%q\x00", k, files[k])
	}
	return b.String()
}

// FuzzFingerprint edits a small work tree step by step, as an agent
// could (edits, edits put back with the old modification time, the
// index's flags, files in a nested repository, untracked and ignored
// files), and takes the fingerprint after each step: two steps with the
// same fingerprint hold the same content. It runs with the racy window
// closed, so that change times alone must tell.
//
//	go test -run '^$' -fuzz FuzzFingerprint -fuzztime 60s ./hook/checks/
func FuzzFingerprint(f *testing.F) {
	f.Add([]byte{0x08, 0x09, 0x0a})             // edit a.go, edit it back with its time
	f.Add([]byte{0x0b, 0x08, 0x0a})             // assume-unchanged, edit, put back
	f.Add([]byte{0x0c, 0x09, 0x0a})             // skip-worktree, edit, put back
	f.Add([]byte{0x10, 0x12, 0x11, 0x12})       // lib/b.go
	f.Add([]byte{0x18, 0x1a, 0x19, 0x1a})       // inside the nested repository
	f.Add([]byte{0x06, 0x0e, 0x06, 0x0d, 0x07}) // untracked files, a removal, the index
	f.Add([]byte{0x20, 0x21, 0x22})             // the ignored file
	f.Fuzz(func(t *testing.T, steps []byte) {
		if len(steps) > 8 {
			steps = steps[:8]
		}
		defer func(w time.Duration) { racy = w }(racy)
		racy = 0
		dir := editTree(t)
		files := []string{"a.go", "lib/b.go", "crate/src/lib.rs", "build.log"}
		original := map[string]time.Time{}
		for _, name := range files {
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			original[name] = fi.ModTime()
		}
		seen := map[string]string{}
		look := func(step string) {
			time.Sleep(tick)
			fp := Fingerprint(dir)
			if fp == "" {
				t.Fatalf("after %s: no fingerprint", step)
			}
			now := contents(t, dir)
			if before, ok := seen[fp]; ok && before != now {
				t.Fatalf("after %s: the fingerprint of another content:\nbefore %q\nnow    %q", step, before, now)
			}
			seen[fp] = now
			time.Sleep(tick)
		}
		look("nothing")
		for i, s := range steps {
			name := files[int(s>>3)%len(files)]
			path := filepath.Join(dir, filepath.FromSlash(name))
			step := fmt.Sprintf("step %d (%d on %s)", i, s&7, name)
			switch s & 7 {
			case 0: // an edit of the same size
				os.WriteFile(path, []byte(fmt.Sprintf("package %02d\n", i)[:len("package a\n")]), 0o644)
			case 1: // an edit, its time put back
				os.WriteFile(path, []byte(fmt.Sprintf("package %d\n", i)), 0o644)
				os.Chtimes(path, original[name], original[name])
			case 2: // the first content put back, with its time
				b, _ := exec.Command("git", "-C", dir, "show", "HEAD:"+name).Output()
				if len(b) == 0 {
					b = []byte("fn f() {}\n")
				}
				os.WriteFile(path, b, 0o644)
				os.Chtimes(path, original[name], original[name])
			case 3:
				exec.Command("git", "-C", dir, "update-index", "--assume-unchanged", name).Run()
			case 4:
				exec.Command("git", "-C", dir, "update-index", "--skip-worktree", name).Run()
			case 5:
				os.Remove(path)
			case 6: // an untracked file, new or rewritten
				os.WriteFile(filepath.Join(dir, "new.go"), []byte(fmt.Sprintf("package n%d\n", i)), 0o644)
			case 7: // the index brought up to the tree
				exec.Command("git", "-C", dir, "add", "-A").Run()
			}
			look(step)
		}
	})
}

// A file edited and put back, content and time, within the racy window is
// a changed tree too: its content tells where its change time may not.
func TestFingerprintRacyEdit(t *testing.T) {
	dir := editTree(t)
	path := filepath.Join(dir, "a.go")
	fi, _ := os.Stat(path)
	before := Fingerprint(dir)
	os.WriteFile(path, []byte("package b\n"), 0o644)
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	if Fingerprint(dir) == before {
		t.Error("an edit put back with its time, at once, left the fingerprint as it was")
	}
}

// A linked worktree, whose .git is a file naming its git directory, has a
// fingerprint of its own files.
func TestFingerprintLinkedWorktree(t *testing.T) {
	dir := editTree(t)
	linked := filepath.Join(t.TempDir(), "linked")
	if out, err := exec.Command("git", "-C", dir, "worktree", "add", "-q", linked).CombinedOutput(); err != nil {
		t.Fatalf("git worktree add: %v\n%s", err, out)
	}
	before := Fingerprint(linked)
	if before == "" {
		t.Fatal("no fingerprint in a linked worktree")
	}
	os.WriteFile(filepath.Join(linked, "a.go"), []byte("package b\n"), 0o644)
	if Fingerprint(linked) == before {
		t.Error("an edit in the linked worktree left its fingerprint as it was")
	}
}

// Past maxRepos repositories, each some git processes, the fingerprint
// gives up: nothing is reused, and thousands of empty repositories an
// agent made cannot hold a stop past the host's hook timeout.
func TestFingerprintManyRepositories(t *testing.T) {
	dir := editTree(t) // the tree and one nested repository
	if Fingerprint(dir) == "" {
		t.Fatal("no fingerprint of a tree within the bound")
	}
	defer func(n int) { maxRepos = n }(maxRepos)
	maxRepos = 2
	if err := exec.Command("git", "init", "-q", filepath.Join(dir, "more")).Run(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "more", "x"), nil, 0o644)
	if Fingerprint(dir) != "" {
		t.Error("a fingerprint past maxRepos repositories")
	}
}
