package checks

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/internal/file"
)

// The cache of a work tree: one directory in the per-user cache, named by
// a hash of the tree's top, with the last result of each command in
// results.json and the last output of each in its own file.
const (
	cacheName   = "loophook"
	resultsFile = "results.json"
	maxResults  = 1 << 20
)

type cache struct {
	dir string // "" when the user has no cache directory: nothing is kept
}

// Dir is where the results and outputs of the checks of the work tree at
// top are kept; "" when the user has no cache directory.
func Dir(top string) string {
	root, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	h := fnv.New64a()
	h.Write([]byte(file.PhysicalDir(top))) // the physical path: one cache however top is named
	return filepath.Join(root, cacheName, "checks", fmt.Sprintf("%016x", h.Sum64()))
}

func openCache(top string) cache { return cache{dir: Dir(top)} }

// results are the kept results by command.
type results map[string]Result

// key is a command's name in the cache and of its output file.
func key(run string) string {
	h := fnv.New64a()
	h.Write([]byte(run))
	return fmt.Sprintf("%016x", h.Sum64())
}

func (c cache) read() results {
	rs := results{}
	if c.dir == "" {
		return rs
	}
	path := filepath.Join(c.dir, resultsFile)
	data, err := file.Read(path, maxResults)
	if err == nil && json.Unmarshal(data, &rs) != nil {
		return results{}
	}
	return rs
}

// reuse is the kept result of the check's command on this tree: a result
// is reused only on the tree it was taken on, and never outside git.
func (c cache) reuse(ch config.Check, tree string) (Result, bool) {
	if tree == "" {
		return Result{}, false
	}
	r, ok := c.read()[key(ch.Run)]
	if !ok || r.Tree != tree || r.Run != ch.Run {
		return Result{}, false
	}
	if r.Passed() && r.Env != environment() {
		// A pass holds only where it was taken: one in the agent's shell,
		// with a variable the tests honour or another PATH, may be a
		// failure in the hook's. A failure stays one.
		return Result{}, false
	}
	r.Name, r.Criterion, r.Cached = ch.Name, ch.Criterion, true
	return r, true
}

// keep writes the result's output to its file and the result into the
// cache, under the cache's lock; a cache that cannot be written only
// loses the reuse. A run the stop's time cut short is not kept, nor its
// output: the file is the kept result's, which why shows with it.
func (c cache) keep(r Result) Result {
	if r.Cut || c.dir == "" || os.MkdirAll(c.dir, 0o700) != nil {
		return r
	}
	out := filepath.Join(c.dir, "output-"+key(r.Run)+".log")
	data := r.output
	if r.dropped > 0 {
		data = append([]byte(fmt.Sprintf(outputDropped+"\n", r.dropped)), data...)
	}
	if file.Write(out, data, 0o600) == nil {
		r.Output = out
	}
	r.Env = environment()
	unlock, err := lockedfile.MutexAt(filepath.Join(c.dir, resultsFile+".lock")).Lock()
	if err != nil {
		return r
	}
	defer unlock()
	rs := c.read()
	rs[key(r.Run)] = r
	if data, err := json.MarshalIndent(rs, "", "  "); err == nil {
		file.Write(filepath.Join(c.dir, resultsFile), data, 0o600)
	}
	return r
}

// environment is a fingerprint of the environment a check runs in, which
// can change what it does as much as the tree: every variable but those a
// shell sets for itself, and those a host sets anew for each hook call.
var environment = sync.OnceValue(func() string {
	env := slices.Sorted(slices.Values(os.Environ()))
	h := fnv.New64a()
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if perCall(name) {
			continue
		}
		h.Write([]byte(kv))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%016x", h.Sum64())
})

// perCall reports whether a variable is one a shell sets for itself or
// one a host changes from one hook call to the next, which would make
// every claim run its passed checks again: Factory Droid puts the
// input's fields there (message_id and elapsed_time change at every
// stop), Qwen Code the id of the person's prompt.
func perCall(name string) bool {
	switch name {
	case "PWD", "OLDPWD", "SHLVL", "_",
		"message_id", "elapsed_time", "tool_execution_count", "stop_hook_active", "hook_event_name", "permission_mode",
		"QWEN_CODE_PROMPT_ID":
		return true
	}
	return false
}

// Last are the kept results of the checks, in their order, for status;
// a check never run has none.
func Last(top string, cs []config.Check) []Result {
	rs := openCache(top).read()
	var out []Result
	for _, ch := range cs {
		if r, ok := rs[key(ch.Run)]; ok {
			r.Name, r.Criterion = ch.Name, ch.Criterion
			out = append(out, r)
		}
	}
	return out
}

// Age is how long ago a result was taken, for a person.
func (r Result) Age(now time.Time) time.Duration { return now.Sub(r.At).Round(time.Second) }

// Kept are the results a claim on the tree as it is now would reuse, in
// the checks' order, running nothing: for a person's look, which must
// show the hook's verdict. Outside git, where nothing is reused, a claim
// would run each check again: its last result is the best word there is.
func Kept(top string, cs []config.Check) []Result {
	tree := Fingerprint(top)
	c := openCache(top)
	var out []Result
	for _, ch := range cs {
		if tree == "" {
			if r, ok := c.read()[key(ch.Run)]; ok && r.Run == ch.Run {
				r.Name, r.Criterion, r.Cached = ch.Name, ch.Criterion, true
				out = append(out, r)
			}
			continue
		}
		if r, ok := c.reuse(ch, tree); ok {
			out = append(out, r)
		}
	}
	return out
}
