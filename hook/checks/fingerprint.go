package checks

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loophook/loophook/internal/file"
)

// Fingerprint names the state of the work tree at top for the cache
// (SPEC section 6): HEAD, and for every file git does not ignore, tracked
// or not, in the work tree and in the submodules and nested repositories
// within it, its path and what lstat says of it (size, modification and
// change times to the nanosecond, inode, mode). It reads no file's content
// and trusts none of the index's shortcuts (assume-unchanged,
// skip-worktree, core.fsmonitor, core.checkStat, core.trustctime): the
// index only names the tracked files, and a change time, which an
// unprivileged program cannot set back, tells a file changed and put back.
// It is "" outside git, or when git cannot list the files: then nothing is
// reused.
//
// The hash is FNV-1a 128: it tells a tree that changed from one that did
// not; it is no defence against a program crafting collisions, which
// could as well rewrite the cache itself.
func Fingerprint(top string) string {
	if _, err := os.Lstat(filepath.Join(top, ".git")); err != nil {
		return ""
	}
	// The file system's clock for change times is coarse (a few
	// milliseconds): a file changed so close before the look could change
	// again, after it, under the same change time.
	f := fingerprint{h: fnv.New128a(), since: time.Now().Add(-racy)}
	if !f.repo(top, "", 0) {
		return ""
	}
	return hex.EncodeToString(f.h.Sum(nil))
}

// racy is how long before the look a change time must be for the file to
// be judged by it alone; git's racy-git rule, with room for file systems
// that keep whole seconds.
var racy = 2 * time.Second

// maxRacy is the largest racily changed file whose content is hashed
// instead; a larger one makes the fingerprint one that is never reused.
const maxRacy = 1 << 20

// maxNesting bounds the repositories within repositories followed.
const maxNesting = 16

// maxRepos bounds the repositories looked at in all, each some git
// processes: thousands of empty ones an agent made must not hold a stop
// past the host's hook timeout. Past it, nothing is reused.
var maxRepos = 256

type fingerprint struct {
	h     hash.Hash
	repos int
	since time.Time
	buf   []byte
}

// repo hashes the repository whose work tree is dir (prefix its path from
// the top), and the repositories within it.
func (f *fingerprint) repo(dir, prefix string, depth int) bool {
	if f.repos++; depth > maxNesting || f.repos > maxRepos {
		return false
	}
	head, files, err := listFiles(dir)
	if err != nil {
		return false
	}
	f.h.Write([]byte("repo\x00" + prefix + "\x00" + head + "\x00"))
	f.dir(dir, prefix)
	dirs := map[string]bool{}
	for _, st := range lstatAll(dir, files) {
		name := st.name
		// The directories that hold it: one swapped for another and back
		// while a check ran leaves the files as they were, but not the
		// directories' change times.
		for i := strings.LastIndexByte(name, '/'); i > 0; i = strings.LastIndexByte(name[:i], '/') {
			if dirs[name[:i]] {
				break
			}
			d := name[:i]
			dirs[d] = true
			f.dir(filepath.Join(dir, filepath.FromSlash(d)), prefix+d+"/")
		}
		rel := prefix + name
		path, fi := st.path, st.fi
		f.h.Write([]byte(rel))
		f.h.Write([]byte{0})
		if st.err != nil {
			f.h.Write([]byte("gone\x00"))
			continue
		}
		f.buf = appendStat(f.buf[:0], fi)
		f.h.Write(f.buf)
		if fi.IsDir() {
			// A submodule, or a repository git does not track: its own
			// files, as its own git lists them.
			if _, err := os.Lstat(filepath.Join(path, ".git")); err == nil {
				if !f.repo(path, rel+"/", depth+1) {
					return false
				}
			} else {
				// A submodule with no repository (a gitlink written into
				// the index would hide new code from git): every file.
				f.walk(path, rel)
			}
			continue
		}
		f.racily(path, fi)
	}
	return true
}

// listed is a listed file's name (slashed, from the work tree), its path
// and what lstat said of it.
type listed struct {
	name, path string
	fi         os.FileInfo
	err        error
}

// lstatChunk is how many listed files a goroutine of lstatAll takes at a
// time, and the fewest for which it starts more than its own.
const lstatChunk = 256

// lstatAll lstats the files git listed in the work tree dir (NUL-separated;
// a nested repository's name ends in a slash, which is dropped, and empty
// names are skipped), in their order. The lstats run in a few goroutines,
// as git status's own do (core.preloadIndex); what is hashed of them, and
// in what order, is the caller's, one at a time.
func lstatAll(dir string, files []byte) []listed {
	out := make([]listed, 0, bytes.Count(files, []byte{0})+1)
	for len(files) > 0 {
		var name []byte
		name, files, _ = bytes.Cut(files, []byte{0})
		// A nested repository is listed as its directory, with a slash.
		name = bytes.TrimSuffix(name, []byte("/"))
		if len(name) > 0 {
			out = append(out, listed{name: string(name)})
		}
	}
	lstat := func(s []listed) {
		for i := range s {
			s[i].path = filepath.Join(dir, filepath.FromSlash(s[i].name))
			s[i].fi, s[i].err = os.Lstat(s[i].path)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), 8, (len(out)+lstatChunk-1)/lstatChunk)
	if workers <= 1 {
		lstat(out)
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(lstatChunk)) - lstatChunk
				if i >= len(out) {
					return
				}
				lstat(out[i:min(i+lstatChunk, len(out))])
			}
		})
	}
	wg.Wait()
	return out
}

// dir hashes what lstat says of a directory that holds listed files.
func (f *fingerprint) dir(path, rel string) {
	f.h.Write([]byte("dir\x00" + rel + "\x00"))
	if fi, err := os.Lstat(path); err == nil {
		f.buf = appendStat(f.buf[:0], fi)
		f.h.Write(f.buf)
	}
}

// walk hashes the path and lstat of every file under dir, whatever git
// would say of them.
func (f *fingerprint) walk(dir, prefix string) {
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, path)
		f.h.Write([]byte(prefix + "/" + filepath.ToSlash(rel) + "\x00"))
		if err != nil {
			f.h.Write([]byte("gone\x00"))
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			f.h.Write([]byte("gone\x00"))
			return nil
		}
		f.buf = appendStat(f.buf[:0], fi)
		f.h.Write(f.buf)
		f.racily(path, fi)
		return nil
	})
}

// racily hashes the content of a regular file changed too lately for its
// change time to tell.
func (f *fingerprint) racily(path string, fi os.FileInfo) {
	if changed(fi).After(f.since) && fi.Mode().IsRegular() {
		f.content(path, fi.Size())
	}
}

// content hashes a racily changed file's bytes; a file too large for
// that gets a mark of its own, so that this fingerprint is never met
// again.
func (f *fingerprint) content(path string, size int64) {
	if size > maxRacy {
		var nonce [16]byte
		rand.Read(nonce[:])
		f.h.Write([]byte("racy\x00"))
		f.h.Write(nonce[:])
		return
	}
	f.h.Write([]byte("content\x00"))
	// Opened without blocking: a named pipe swapped in since the lstat
	// is not read.
	if fl, _, err := file.Open(path); err == nil {
		io.Copy(f.h, io.LimitReader(fl, maxRacy))
		fl.Close()
	}
	f.h.Write([]byte{0})
}

// appendStat appends what lstat says of a file: size, mode, times and
// inode.
func appendStat(b []byte, fi os.FileInfo) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(fi.Size()))
	b = binary.LittleEndian.AppendUint32(b, uint32(fi.Mode()))
	b = binary.LittleEndian.AppendUint64(b, uint64(fi.ModTime().UnixNano()))
	return appendSys(b, fi)
}

// listFiles runs git in the work tree dir for its HEAD ("" before the
// first commit) and every file it does not ignore, NUL-separated: those in
// the index, whatever their flags, those in HEAD though taken out of the
// index (git rm --cached, then ignored, would hide a tracked file), and
// the others. Its own repository only: the variables that would point it
// elsewhere are dropped, and the settings that would let it answer from a
// cache or a monitor the agent controls are turned off.
func listFiles(dir string) (head string, files []byte, err error) {
	env := gitEnv(dir)
	rev := exec.Command("git", "rev-parse", "--verify", "--quiet", "HEAD")
	rev.Dir, rev.Env = dir, env
	var revOut bytes.Buffer
	rev.Stdout = &revOut
	if err := rev.Start(); err != nil {
		return "", nil, err
	}
	// HEAD's files side by side (none before the first commit).
	tree := exec.Command("git", "ls-tree", "-r", "-z", "--name-only", "--full-tree", "HEAD")
	tree.Dir, tree.Env = dir, env
	var treeOut bytes.Buffer
	tree.Stdout = &treeOut
	treeErr := tree.Start()
	ls := exec.Command("git", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false",
		"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate", "--full-name")
	ls.Dir, ls.Env = dir, env
	files, err = ls.Output()
	rev.Wait() // exits 1 before the first commit
	if treeErr == nil {
		tree.Wait()
	}
	return strings.TrimSpace(revOut.String()), withHead(files, treeOut.Bytes()), err
}

// withHead appends to files those of HEAD's that it lacks: a file taken
// out of the index.
func withHead(files, head []byte) []byte {
	listed := make(map[string]struct{}, bytes.Count(files, []byte{0}))
	for rest := files; len(rest) > 0; {
		var name []byte
		name, rest, _ = bytes.Cut(rest, []byte{0})
		listed[string(name)] = struct{}{}
	}
	for rest := head; len(rest) > 0; {
		var name []byte
		name, rest, _ = bytes.Cut(rest, []byte{0})
		if _, ok := listed[string(name)]; !ok {
			files = append(append(files, name...), 0)
		}
	}
	return files
}

// gitEnv is the environment for git in the work tree dir: none of the
// variables that would point git at another repository, index or
// configuration than the work tree's own.
func gitEnv(dir string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return append(out,
		"GIT_DIR="+filepath.Join(dir, ".git"),
		"GIT_WORK_TREE="+dir,
		"GIT_OPTIONAL_LOCKS=0")
}
