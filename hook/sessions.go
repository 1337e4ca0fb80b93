package hook

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LatestSession names the session whose memory was written last, for a
// person's look when they name none; ok is false when the store holds no
// memory. A session id that was hashed into its file name comes back as that
// name, which Read maps to the same file.
func (s Store) LatestSession() (session string, ok bool, err error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf(memoryUnreadable, err)
	}
	var newest string
	var when int64
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".json") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		// Ties go to the later name, so the answer does not depend on the
		// order the directory lists them in.
		if t := fi.ModTime().UnixNano(); newest == "" || t > when || t == when && name > newest {
			newest, when = name, t
		}
	}
	if newest == "" {
		return "", false, nil
	}
	session = strings.TrimSuffix(newest, ".json")
	if filepath.Join(s.Dir, newest) == s.file("") {
		session = ""
	}
	return session, true, nil
}
