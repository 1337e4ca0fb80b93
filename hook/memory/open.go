package memory

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
	State   string
	Dialect string
	Seen    int64 // when a stop last set it, Unix seconds
}

// Open are the open contracts of one work tree's sessions.
type Open struct {
	path string // "" when the user has no cache directory: nothing is kept
	// seen is the file as this hook call read it, so that a stop reads it
	// once; nil before it was read.
	seen map[string]Governing
	// also are the open contracts under the top's path as written, when a
	// link on it leads to the physical top: what is set or dropped is set
	// or dropped there too, so that the link pointed elsewhere since
	// (OpenAt) does not lose it.
	also *Open
	phys string // the work tree's top, physical, as OpenFor resolved it
}

// OpenFor is the open contracts of the work tree whose top is top.
func OpenFor(top string) *Open {
	root, err := os.UserCacheDir()
	if err != nil || top == "" {
		return &Open{}
	}
	phys := file.PhysicalDir(top)
	o := &Open{path: filepath.Join(root, cacheName, openDir, cacheKey(phys)), phys: phys}
	if abs, err := filepath.Abs(top); err == nil && abs != phys {
		o.also = OpenAt(abs)
	}
	return o
}

// Top is the physical top of the work tree OpenFor was given; "" for
// another Open.
func (o *Open) Top() string { return o.phys }

// OpenAt is the open contracts recorded under top's path as it is
// written, no link on it resolved: a work tree moved away, a link to it
// left in its place, was recorded there.
func OpenAt(top string) *Open {
	root, err := os.UserCacheDir()
	if err != nil || top == "" {
		return &Open{}
	}
	if abs, err := filepath.Abs(top); err == nil {
		top = abs
	}
	return &Open{path: filepath.Join(root, cacheName, openDir, cacheKey(top))}
}

// OpenAbove yields, nearest first, the open contracts kept for dir, a
// physical and absolute path, and for each directory above it, skip's
// aside. It looks for each one's file, one lstat a directory: the cost
// is the depth, however many work trees have kept one.
func OpenAbove(dir, skip string) func(yield func(*Open) bool) {
	return func(yield func(*Open) bool) {
		root, err := os.UserCacheDir()
		if err != nil {
			return
		}
		path := []byte(filepath.Join(root, cacheName, openDir) + string(filepath.Separator))
		base := len(path)
		for d := dir; ; d = filepath.Dir(d) {
			if d != skip {
				path = appendKey(path[:base], d)
				if _, err := os.Lstat(string(path)); err == nil && !yield(OpenAt(d)) {
					return
				}
			}
			if filepath.Dir(d) == d {
				return
			}
		}
	}
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
	return parseOpen(string(data))
}

// The file is a line a session: its id and its loop's state file, each
// quoted, the dialect and when it was last set. It is read at every stop,
// so it is parsed by hand: encoding/json's reflection over a type it has
// not met costs a hook call more than the rest of the lookup. A line that
// does not read is passed over.
func parseOpen(text string) map[string]Governing {
	m := map[string]Governing{}
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		session, rest, ok := cutQuoted(line)
		if !ok {
			continue
		}
		state, rest, ok := cutQuoted(rest)
		if !ok {
			continue
		}
		dialect, seen, ok := strings.Cut(rest, " ")
		n, err := strconv.ParseInt(seen, 10, 64)
		if !ok || err != nil {
			continue
		}
		m[session] = Governing{State: state, Dialect: dialect, Seen: n}
	}
	return m
}

// cutQuoted cuts a quoted string and the space after it from the front
// of s.
func cutQuoted(s string) (value, rest string, ok bool) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil || len(s) == len(q) || s[len(q)] != ' ' {
		return "", "", false
	}
	value, err = strconv.Unquote(q)
	return value, s[len(q)+1:], err == nil
}

func formatOpen(m map[string]Governing) []byte {
	var b []byte
	for _, session := range slices.Sorted(maps.Keys(m)) {
		g := m[session]
		b = strconv.AppendQuote(b, session)
		b = append(b, ' ')
		b = strconv.AppendQuote(b, g.State)
		b = append(b, ' ')
		b = append(b, g.Dialect...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, g.Seen, 10)
		b = append(b, '\n')
	}
	return b
}

// Set records that the contract of the state file governs the session;
// it writes only when that changes, or a day after it was last set (so
// that an old session's entry is pruned, never a live one's).
func (o *Open) Set(session, state, dialect string, now time.Time) error {
	if o.also != nil {
		if err := o.also.Set(session, state, dialect, now); err != nil {
			return err
		}
	}
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
	if o.also != nil {
		if err := o.also.Drop(session, state); err != nil {
			return err
		}
	}
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
	if err := file.WriteUnsynced(o.path, formatOpen(m), 0o600); err != nil {
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
