// Package memory is the loop's memory (SPEC section 5): what the hook keeps
// between stops, per state file and session, and the one place that
// decides where it lives (Store, in the per-user cache, named after the
// state file's physical path): the sessions' counts, the contract, the
// budget record, a person's cancel of another system's loop, the journal
// that why reads, and their pruning. Every reader (the hook, status, why,
// a person's commands) asks the Store.
package memory

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/internal/file"
)

// cacheName is the hook's directory in the per-user cache.
const cacheName = "loophook"

// maxMemory caps a memory file: the hook's own are a few KiB, so anything
// larger (a link to /dev/zero, say) is not the hook's and is not read.
const maxMemory = 64 << 10

// keepProgress is how many progress fingerprints a session remembers: a
// state that goes back to any of them has made no progress.
const keepProgress = 32

// Memory is what the hook remembers of one session between evaluations.
// Losing it only resets the counts.
type Memory struct {
	// Seen are the progress fingerprints of the session's last
	// evaluations, oldest first, at most keepProgress.
	Seen          []string      `json:"seen,omitempty"`
	Unchanged     int           `json:"unchanged"`     // the guard count
	Continuations int           `json:"continuations"` // stops in a row with stop_hook_active
	Rule          criteria.Rule `json:"rule"`          // the rule that last decided
	// Last is the last stop evaluated and the verdict it was given, for a
	// second registration of the hook that brings the same stop.
	Last *Answered `json:"last,omitempty"`
}

// Answered is one stop and the verdict it was given.
type Answered struct {
	Key    string        `json:"key"` // the stop's key (stopKey)
	At     int64         `json:"at"`  // when the verdict was given, Unix nanoseconds
	OK     bool          `json:"ok"`
	Reason string        `json:"reason"`
	Rule   criteria.Rule `json:"rule"`
	// Unfinished is the verdict's: a loop let go with work unmet.
	Unfinished bool `json:"unfinished,omitempty"`
}

// AddProgress adds a progress fingerprint to a session's list, as its newest.
func AddProgress(list []string, progress string) []string {
	list = slices.DeleteFunc(slices.Clone(list), func(s string) bool { return s == progress })
	list = append(list, progress)
	return list[max(0, len(list)-keepProgress):]
}

// Store is the memory of one loop (SPEC section 5): a file per session,
// each written atomically under its own file lock, the loop's contract,
// budget record, cancel record and journal. It alone decides where they
// live: in the per-user cache, for every dialect, in a directory named
// after the state file's physical path, so that nothing the hook counts
// lives in the project, where the agent writes. Every state file has a
// store of its own, even beside another in one directory.
type Store struct {
	// Dir is the state file's directory in the per-user cache; "" when
	// the user has no cache directory, and NoCache says why.
	Dir     string
	NoCache error
}

// For returns the store of the state file at statePath.
func For(statePath string) Store {
	if statePath != "" {
		statePath = file.Physical(statePath)
	}
	return ForPhysical(statePath)
}

// ForPhysical is For of a path already physical, as an open contract
// recorded it: a link put on its path since leads to no other file's
// memory.
func ForPhysical(physical string) Store {
	root, err := os.UserCacheDir()
	if err != nil {
		return Store{NoCache: fmt.Errorf(memoryNoCache, err)}
	}
	if physical == "" {
		return Store{}
	}
	return Store{Dir: filepath.Join(root, cacheName, cacheKey(physical))}
}

// DirIn is the store's directory of the state file at statePath under the
// per-user cache directory root: named after the file's physical path, so
// that a person in a shell reached through a link and a host that names
// the physical directory share one memory.
func DirIn(root, statePath string) string {
	return filepath.Join(root, cacheName, cacheKey(file.Physical(statePath)))
}

// Journal is the loop's journal.
func (s Store) Journal() Journal { return Journal{Dir: s.Dir} }

// maxKey bounds a cache directory's name well below the 255 bytes a file
// system allows; keepKey is how much of a longer one's end is kept.
const (
	maxKey  = 200
	keepKey = 160
)

// cacheKey names a state file's directory in the per-user cache after its
// absolute path, so that a person can tell whose it is: separators become
// '+', and every byte but a letter, a digit, '.', '-' and '_' is written
// %XX (a leading '.' too, so that no name is hidden), which keeps two
// paths apart. A name longer than maxKey keeps the path's end and starts
// with an FNV-1a hash of the whole: two such paths that end alike and
// collide would share counts, nothing worse, and the hook links no
// cryptographic hash for it.
func cacheKey(abs string) string { return string(appendKey(nil, abs)) }

// appendKey appends cacheKey(abs) to b: into a buffer used again, a stop
// that asks every directory above one allocates nothing for each.
func appendKey(b []byte, abs string) []byte {
	abs = strings.TrimLeft(filepath.ToSlash(abs), "/")
	start := len(b)
	for i := 0; i < len(abs); i++ {
		switch c := abs[i]; {
		case c == '/':
			b = append(b, '+')
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.' && i > 0, c == '-', c == '_':
			b = append(b, c)
		default:
			const hex = "0123456789ABCDEF"
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	if len(b)-start <= maxKey {
		return b
	}
	tail := string(b[max(start, len(b)-keepKey):])
	h := fnv.New64a()
	h.Write([]byte(abs))
	return fmt.Appendf(b[:start], "%016x-%s", h.Sum64(), tail)
}

// file is the session's memory file in dir; ids that are not plain names
// are hashed so that no session id can name a path outside the store.
func sessionFile(dir, session string) string {
	name := session
	switch {
	case session == "":
		name = "no-session"
	case !plainName(session):
		name = fmt.Sprintf("id-%08x", crc32.ChecksumIEEE([]byte(session)))
	}
	return filepath.Join(dir, name+".json")
}

// File is the session's memory file.
func (s Store) File(session string) string { return sessionFile(s.Dir, session) }

// Read returns the session's memory without locking, for a person's look;
// ok is false when there is none or it cannot be read.
func (s Store) Read(session string) (m Memory, ok bool, err error) {
	if s.Dir == "" {
		return Memory{}, false, nil
	}
	return readMemory(s.File(session))
}

// readMemory reads one memory file. It opens only a regular file, without
// blocking on a named pipe, and reads at most maxMemory bytes of it.
func readMemory(path string) (m Memory, ok bool, err error) {
	data, err := file.Read(path, maxMemory)
	switch {
	case file.Absent(err):
		return m, false, nil
	case errors.Is(err, file.ErrNotRegular):
		return m, false, fmt.Errorf(memoryNotRegular, path)
	case errors.Is(err, file.ErrTooLarge):
		return m, false, fmt.Errorf(memoryTooLarge, path, maxMemory>>10)
	case err != nil:
		return m, false, fmt.Errorf(memoryUnreadable, err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return Memory{}, false, fmt.Errorf(memoryDamaged, path)
	}
	return m, true, nil
}

// Update reads the session's memory, lets next compute the new one and
// writes it, all under the session's lock, so that concurrent evaluations of
// one session count exactly. next always runs, even when the store cannot
// be used: then with lost, which says where the memory could not be kept
// and why, and which Update returns too; otherwise the error only notes
// what was wrong with the memory found.
func (s Store) Update(session string, next func(prev Memory, ok bool, lost error) Memory) error {
	note, err := s.update(session, func(prev Memory, ok bool) Memory { return next(prev, ok, nil) })
	if err == nil {
		s.prune()
		return note
	}
	lost := s.lost(err)
	next(Memory{}, false, lost)
	return lost
}

// lost says why the store could not keep the memory: err, or that the
// user has no cache directory.
func (s Store) lost(err error) error {
	if s.Dir == "" {
		return cmp.Or(s.NoCache, errors.New(memoryNowhere))
	}
	return err
}

// update is Update in the store's directory. err says the directory cannot
// be used; note says what was wrong with the memory found there.
func (s Store) update(session string, next func(prev Memory, ok bool) Memory) (note, err error) {
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	path := s.File(session)
	unlock, err := lockedfile.MutexAt(path + ".lock").Lock()
	if err != nil {
		return nil, fmt.Errorf(memoryNoLock, err)
	}
	defer unlock()
	prev, ok, note := readMemory(path)
	m := next(prev, ok)
	if ok && m.equal(prev) {
		return note, nil
	}
	if err := writeAtomic(path, m); err != nil {
		return nil, err
	}
	return note, nil
}

// equal reports whether two memories would be written alike.
func (m Memory) equal(o Memory) bool {
	return slices.Equal(m.Seen, o.Seen) && m.Unchanged == o.Unchanged && m.Continuations == o.Continuations &&
		m.Rule == o.Rule && (m.Last == nil) == (o.Last == nil) && (m.Last == nil || *m.Last == *o.Last)
}

// ensureDir makes the store's directory, the user's alone.
func (s Store) ensureDir() error {
	if s.Dir == "" {
		return s.lost(nil)
	}
	if fi, err := os.Stat(s.Dir); err == nil && fi.IsDir() {
		return nil
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf(memoryNoDir, err)
	}
	return nil
}

func writeAtomic(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := file.WriteUnsynced(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf(memoryNoWrite, err)
	}
	return nil
}

// plainName reports whether a session id is safe as a file name as it is:
// not a Windows device name (CON, NUL, COM1...), which names a device
// there whatever follows its first dot.
func plainName(s string) bool {
	if len(s) > 100 || s[0] == '.' || device(s) {
		return false
	}
	for _, c := range []byte(s) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		if !ok {
			return false
		}
	}
	return true
}

// device reports whether name, up to its first dot, is one of Windows's
// device names, in any case.
func device(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	switch strings.ToUpper(base) {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	u := strings.ToUpper(base)
	return len(u) == 4 && (strings.HasPrefix(u, "COM") || strings.HasPrefix(u, "LPT")) && u[3] >= '0' && u[3] <= '9'
}

// LockChecks takes the loop's lock for running its checks, apart from the
// memory's: two evaluations of one stop (two registrations) run them one
// after the other, the second on the first's results, while neither holds
// the memory for minutes.
func (s Store) LockChecks() (unlock func(), err error) {
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	return lockedfile.MutexAt(filepath.Join(s.Dir, ".checks.lock")).Lock()
}
