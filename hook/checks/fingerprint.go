package checks

import (
	"bytes"
	"encoding/hex"
	"hash"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Fingerprint names the state of the work tree at top for the cache: a
// hash of git's own look at the tree (HEAD, and each changed, staged or
// untracked file git does not ignore, with its object names) and of the
// content of every such file as it is now. It is "" outside git, or when
// git cannot tell: then nothing is reused.
//
// The hash is FNV-1a 128: it tells a tree that changed from one that did
// not; it is no defence against a program crafting collisions, which
// could as well rewrite the cache itself.
func Fingerprint(top string) string {
	if _, err := os.Lstat(filepath.Join(top, ".git")); err != nil {
		return ""
	}
	// No optional locks: the hook must not race the agent's own git for
	// the index.
	cmd := exec.Command("git", "--no-optional-locks", "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--ignore-submodules=none")
	cmd.Dir = top
	cmd.Env = gitEnv()
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	h := fnv.New128a()
	h.Write(out)
	for rec := range records(out) {
		if path := entryPath(rec); path != "" {
			h.Write([]byte{0})
			h.Write([]byte(path))
			h.Write([]byte{0})
			content(h, filepath.Join(top, filepath.FromSlash(path)))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// gitEnv is the environment without the variables that would point git
// at another repository than the work tree's own.
func gitEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		switch {
		case bytes.HasPrefix([]byte(kv), []byte("GIT_DIR=")),
			bytes.HasPrefix([]byte(kv), []byte("GIT_WORK_TREE=")),
			bytes.HasPrefix([]byte(kv), []byte("GIT_INDEX_FILE=")):
			continue
		}
		out = append(out, kv)
	}
	return out
}

// records are the NUL-separated records of git status -z; a rename's
// original path, its own record, comes right after it.
func records(out []byte) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(out) > 0 {
			rec, rest, _ := bytes.Cut(out, []byte{0})
			out = rest
			if len(rec) > 1 && rec[0] == '2' && rec[1] == ' ' {
				_, out, _ = bytes.Cut(out, []byte{0}) // the original path
			}
			if !yield(rec) {
				return
			}
		}
	}
}

// entryPath is the path of a porcelain v2 record that names a file in the
// work tree: an ordinary, renamed, unmerged or untracked entry.
func entryPath(rec []byte) string {
	fields := 0
	switch {
	case bytes.HasPrefix(rec, []byte("1 ")):
		fields = 8
	case bytes.HasPrefix(rec, []byte("2 ")):
		fields = 9
	case bytes.HasPrefix(rec, []byte("u ")):
		fields = 10
	case bytes.HasPrefix(rec, []byte("? ")):
		fields = 1
	default:
		return ""
	}
	parts := bytes.SplitN(rec, []byte(" "), fields+1)
	if len(parts) != fields+1 {
		return ""
	}
	return string(parts[fields])
}

// content hashes what is at path now: a file's bytes, a link's target, or
// a mark for what is neither or is gone.
func content(h hash.Hash, path string) {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		h.Write([]byte("gone"))
	case fi.Mode()&os.ModeSymlink != 0:
		target, _ := os.Readlink(path)
		h.Write([]byte("link " + target))
	case fi.Mode().IsRegular():
		f, err := os.Open(path)
		if err != nil {
			h.Write([]byte("unreadable"))
			return
		}
		defer f.Close()
		h.Write([]byte("file "))
		io.Copy(h, f)
	default:
		h.Write([]byte("other " + fi.Mode().String()))
	}
}
