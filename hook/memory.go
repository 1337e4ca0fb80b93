package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/loophook/loophook/criteria"
)

// MemoryDir is the hook's own directory beside the state file.
const MemoryDir = ".loophook"

// Memory is what the hook remembers of one session between evaluations.
// Losing it only resets the guard count.
type Memory struct {
	Fingerprint string        `json:"fingerprint"` // of the state file's bytes at the last evaluation
	Unchanged   int           `json:"unchanged"`   // the guard count
	Rule        criteria.Rule `json:"rule"`        // the rule that last decided
}

// Store is the memory of every session of one loop, one file per session,
// each written atomically (temp file and rename) under its own file lock.
type Store struct {
	Dir string
}

// StoreFor returns the store that sits beside the state file at statePath.
func StoreFor(statePath string) Store {
	return Store{Dir: filepath.Join(filepath.Dir(statePath), MemoryDir)}
}

// file is the session's memory file; ids that are not plain names are hashed
// so that no session id can name a path outside the store.
func (s Store) file(session string) string {
	name := session
	switch {
	case session == "":
		name = "no-session"
	case !plainName(session):
		name = fmt.Sprintf("id-%08x", crc32.ChecksumIEEE([]byte(session)))
	}
	return filepath.Join(s.Dir, name+".json")
}

// Read returns the session's memory without locking, for a person's look;
// ok is false when there is none or it cannot be read.
func (s Store) Read(session string) (m Memory, ok bool, err error) {
	data, err := os.ReadFile(s.file(session))
	if errors.Is(err, os.ErrNotExist) {
		return m, false, nil
	}
	if err != nil {
		return m, false, fmt.Errorf(memoryUnreadable, err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return Memory{}, false, fmt.Errorf(memoryDamaged, s.file(session))
	}
	return m, true, nil
}

// Update reads the session's memory, lets next compute the new one and
// writes it, all under the session's lock, so that concurrent evaluations of
// one session count exactly. next always runs, even when the store cannot be
// used; the error then says why nothing was remembered.
func (s Store) Update(session string, next func(prev Memory, ok bool) Memory) error {
	if err := s.ensureDir(); err != nil {
		next(Memory{}, false)
		return fmt.Errorf("%w"+noteUncounted, err)
	}
	path := s.file(session)
	unlock, err := lockedfile.MutexAt(path + ".lock").Lock()
	if err != nil {
		next(Memory{}, false)
		return fmt.Errorf(memoryNoLock+noteUncounted, err)
	}
	defer unlock()
	prev, ok, readErr := s.Read(session)
	m := next(prev, ok)
	if ok && m == prev {
		return readErr
	}
	if err := writeAtomic(path, m); err != nil {
		return fmt.Errorf("%w"+noteUncounted, err)
	}
	return readErr
}

func (s Store) ensureDir() error {
	if _, err := os.Stat(s.Dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return fmt.Errorf(memoryNoDir, err)
	}
	// Keep the hook's memory out of the project's commits.
	return os.WriteFile(filepath.Join(s.Dir, ".gitignore"), []byte("*\n"), 0o644)
}

func writeAtomic(path string, m Memory) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(path, append(data, '\n'), 0o600, false); err != nil {
		return fmt.Errorf(memoryNoWrite, err)
	}
	return nil
}

// plainName reports whether a session id is safe as a file name as it is.
func plainName(s string) bool {
	if len(s) > 100 || s[0] == '.' {
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
