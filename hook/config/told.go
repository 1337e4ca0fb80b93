package config

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/loophook/loophook/internal/file"
)

// keepTold is how many sessions the record of what was told remembers.
const keepTold = 64

// told is, per session, the hash of the last message told about a file.
type told struct {
	Sessions []toldSession `json:"sessions"`
}

type toldSession struct {
	ID   string `json:"id"`
	Hash string `json:"hash"`
}

// FirstTelling reports whether the person has not yet been told Tell() in
// this session, and records that they now are: a person hears of a file's
// situation once per session, from the first hook call that meets it. A
// record that cannot be kept tells every time rather than never.
func (f InForce) FirstTelling(session string) bool {
	text := f.Tell()
	if text == "" {
		return false
	}
	root, err := os.UserCacheDir()
	if err != nil {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(file.Physical(f.Path)))
	at := filepath.Join(root, dirName, "told", fmt.Sprintf("%016x.json", h.Sum64()))
	if os.MkdirAll(filepath.Dir(at), 0o700) != nil {
		return true
	}
	unlock, err := lockedfile.MutexAt(at + ".lock").Lock()
	if err != nil {
		return true
	}
	defer unlock()
	h.Reset()
	h.Write([]byte(text))
	sum := fmt.Sprintf("%016x", h.Sum64())
	var t told
	if data, ok, err := readFile(at); ok && err == nil {
		json.Unmarshal(data, &t)
	}
	i := slices.IndexFunc(t.Sessions, func(s toldSession) bool { return s.ID == session })
	if i >= 0 && t.Sessions[i].Hash == sum {
		return false
	}
	if i >= 0 {
		t.Sessions = slices.Delete(t.Sessions, i, i+1)
	}
	t.Sessions = append(t.Sessions, toldSession{ID: session, Hash: sum})
	t.Sessions = t.Sessions[max(0, len(t.Sessions)-keepTold):]
	data, err := json.Marshal(t)
	if err == nil {
		// Lost in a crash, it only tells once more.
		file.WriteUnsynced(at, data, 0o600)
	}
	return true
}
