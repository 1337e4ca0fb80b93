package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/loophook/loophook/internal/file"
)

// LatestSession names the session whose memory was written last, for a
// person's look when they name none; ok is false when the store holds no
// memory. A session id that was hashed into its file name comes back as that
// name, which Read maps to the same file.
func (s Store) LatestSession() (session string, ok bool, err error) {
	var newest string
	var when int64
	if s.Dir != "" {
		entries, err := os.ReadDir(s.Dir)
		if file.Absent(err) {
			return "", false, nil
		}
		if err != nil {
			return "", false, fmt.Errorf(memoryUnreadable, err)
		}
		for _, e := range entries {
			name := e.Name()
			if !e.Type().IsRegular() || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
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
	}
	if newest == "" {
		return "", false, nil
	}
	if newest == filepath.Base(sessionFile("", "")) {
		return "", true, nil
	}
	return strings.TrimSuffix(newest, ".json"), true, nil
}
