package memory

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/loophook/loophook/internal/file"
)

// openDir holds, in the per-user cache, one small file per work tree:
// which unfinished contract governs each of its sessions (SPEC section 5,
// one open contract per work tree and session). A stop reads that one
// file, keyed by the work tree's physical top; it scans nothing.
const openDir = "open"

// maxOpen caps the file: a few hundred sessions' entries at most.
const maxOpen = 256 << 10

// Governing is the unfinished contract that governs a session of a work
// tree: the state file of its loop, and the dialect it was found as.
type Governing struct {
	State   string `json:"state"`
	Dialect string `json:"dialect"`
	Seen    int64  `json:"seen"` // when a stop last set it, Unix seconds
}

// Open are the open contracts of one work tree's sessions.
type Open struct {
	path string // "" when the user has no cache directory: nothing is kept
	// seen is the file as this hook call read it, so that a stop reads it
	// once; nil before it was read.
	seen map[string]Governing
}

// OpenFor is the open contracts of the work tree whose top is top.
func OpenFor(top string) *Open {
	root, err := os.UserCacheDir()
	if err != nil || top == "" {
		return &Open{}
	}
	return &Open{path: filepath.Join(root, cacheName, openDir, cacheKey(file.PhysicalDir(top))+".json")}
}

// Governing says which unfinished contract governs the session, as the
// stops before recorded it; false when none does.
func (o *Open) Governing(session string) (Governing, bool) {
	if o.path == "" {
		return Governing{}, false
	}
	if o.seen == nil {
		o.seen = o.read()
	}
	g, ok := o.seen[session]
	return g, ok
}

func (o *Open) read() map[string]Governing {
	data, err := file.Read(o.path, maxOpen)
	if err != nil {
		return map[string]Governing{}
	}
	var m map[string]Governing
	if json.Unmarshal(data, &m) != nil || m == nil {
		return map[string]Governing{}
	}
	return m
}

// Set records that the contract of the state file governs the session;
// it writes only when that changes, or a day after it was last set (so
// that an old session's entry is pruned, never a live one's).
func (o *Open) Set(session, state, dialect string, now time.Time) error {
	return o.update(func(m map[string]Governing) bool {
		g, ok := m[session]
		if ok && g.State == state && g.Dialect == dialect && now.Unix()-g.Seen < int64(pruneEvery/time.Second) {
			return false
		}
		m[session] = Governing{State: state, Dialect: dialect, Seen: now.Unix()}
		return true
	})
}

// Holds reports whether the contract of the state file is recorded as
// governing the session, as this hook call read the file.
func (o *Open) Holds(session, state string) bool {
	g, ok := o.Governing(session)
	return ok && g.State == state
}

// Drop forgets that the contract of the state file governs the session:
// its loop ended.
func (o *Open) Drop(session, state string) error {
	return o.update(func(m map[string]Governing) bool {
		if g, ok := m[session]; !ok || g.State != state {
			return false
		}
		delete(m, session)
		return true
	})
}

// update lets change edit the entries under the file's lock, and writes
// them when it says so, pruning sessions unseen for a week.
func (o *Open) update(change func(map[string]Governing) bool) error {
	if o.path == "" {
		return nil
	}
	// Most stops change nothing: the file as read says so.
	if o.seen == nil {
		o.seen = o.read()
	}
	if !change(maps.Clone(o.seen)) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(o.path), 0o700); err != nil {
		return fmt.Errorf(memoryNoDir, err)
	}
	unlock, err := lockedfile.MutexAt(o.path + ".lock").Lock()
	if err != nil {
		return fmt.Errorf(memoryNoLock, err)
	}
	defer unlock()
	m := o.read()
	o.seen = m
	if !change(m) {
		return nil
	}
	cutoff := time.Now().Add(-pruneAfter).Unix()
	maps.DeleteFunc(m, func(_ string, g Governing) bool { return g.Seen < cutoff })
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := file.WriteUnsynced(o.path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf(memoryNoWrite, err)
	}
	return nil
}

// Unfinished reports whether the loop's contract is under way: there is
// one, and it has not ended.
func (s Store) Unfinished() bool {
	c, found, err := s.readHeader()
	return err == nil && found && !c.Ended
}

// ContractCriteria are the criteria of the loop's contract under way;
// nil when none is.
func (s Store) ContractCriteria() []string {
	c, found, err := s.readContract()
	if err != nil || !found || c.Ended {
		return nil
	}
	return c.Criteria
}
