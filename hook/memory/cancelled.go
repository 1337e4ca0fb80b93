package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/internal/file"
)

// cancelledFile is the hook's record that a person cancelled the loop of
// a state file loophook does not write (another loop system's): kept in the
// per-user memory of that state file, beside its contract.
const cancelledFile = ".cancelled"

// maxCancelled caps the record, which holds a fingerprint and a time.
const maxCancelled = 4 << 10

// cancelRecord is the state a person cancelled, by its progress
// fingerprint, and when.
type cancelRecord struct {
	Progress string `json:"progress"`
	At       int64  `json:"at"` // Unix nanoseconds
}

// CancelLoop records that a person cancelled the loop of the state found,
// as the state is now, for a loop system whose file loophook never writes:
// the hook treats that state as cancelled until it changes (a new loop), or
// a person runs init or accept. It returns the record's path.
func CancelLoop(f state.Found, now time.Time) (string, error) {
	l := state.Load(f)
	if l.Loop == nil {
		return "", fmt.Errorf(cancelInvalid, f.Path)
	}
	s := For(f.Path)
	if err := s.ensureDir(); err != nil {
		return "", fmt.Errorf(cancelNowhere, err)
	}
	path := filepath.Join(s.Dir, cancelledFile)
	data, err := json.Marshal(cancelRecord{Progress: l.Progress, At: now.UnixNano()})
	if err != nil {
		return "", err
	}
	if err := file.Write(path, append(data, '\n'), 0o600); err != nil {
		return "", fmt.Errorf(cancelNoWrite, err)
	}
	return path, nil
}

// Uncancel forgets a person's cancel of the loop: init and accept start
// the loop afresh.
func (s Store) Uncancel() error {
	if s.Dir == "" {
		return nil
	}
	err := os.Remove(filepath.Join(s.Dir, cancelledFile))
	if err != nil && !file.Absent(err) {
		return fmt.Errorf(cancelNoClear, err)
	}
	return nil
}

// Cancelled is when a person cancelled the loop of the state loaded, as
// it is (the record names its progress); zero when they did not. A record
// of another state (the loop went on, or a new one began at that path) is
// dropped when forget is set, so that it holds no later loop.
func (s Store) Cancelled(l *state.Loaded, forget bool) (time.Time, error) {
	if s.Dir == "" {
		return time.Time{}, nil
	}
	path := filepath.Join(s.Dir, cancelledFile)
	data, err := file.Read(path, maxCancelled)
	if file.Absent(err) {
		return time.Time{}, nil
	}
	var rec cancelRecord
	if err == nil && json.Unmarshal(data, &rec) != nil {
		err = errors.New(cancelDamaged)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf(cancelUnreadable, path, err)
	}
	if rec.Progress == l.Progress {
		return time.Unix(0, rec.At), nil
	}
	if forget {
		return time.Time{}, s.Uncancel()
	}
	return time.Time{}, nil
}

// ApplyCancel makes the loop loaded cancelled when a person cancelled it
// with loophook cancel and the state is still as they cancelled it.
func (s Store) ApplyCancel(l *state.Loaded, forget bool) error {
	if l.Loop == nil || l.Loop.Inactive() {
		return nil
	}
	at, err := s.Cancelled(l, forget)
	if !at.IsZero() {
		l.Loop.LoopStatus, l.Loop.CancelRecorded = StatusCancelled, true
	}
	return err
}

// StatusCancelled is the status of a cancelled loop.
const StatusCancelled = "cancelled"
