package memory

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
	"time"

	"github.com/loophook/loophook/criteria"
)

// One stop can reach the hook twice: Codex CLI runs every registration of
// it (user and project) at once with the same stdin, and Copilot CLI runs
// its own registration and then Claude Code's, with the same session and
// instant. The guard and the counts must see that stop once, and the second
// evaluation answer what the first did. But two stops of one Claude Code
// turn can bring the same stdin (same session, stop_hook_active true, same
// last message), and both must count, or a runaway that repeats itself
// would never be ended. A stop's key, and when a remembered verdict is
// that stop's, are chosen for both.

// The kinds of stop key.
const (
	instantKey = "at:" // the instant the host stamped the stop
	bytesKey   = "in:" // the input's bytes
	// transcriptMark adds the transcript's size and time to a bytes key:
	// the host writes the agent's new message there before the next stop.
	transcriptMark = "@"
)

// sameStopWindow bounds how long a verdict is given again for a key that
// names one stop: a second registration runs within moments of the first,
// and a host that stamped two stops alike must not hold a session for ever.
const sameStopWindow = time.Minute

// StopKey is a stop's identity for the hook input's StopKey, from the input's bytes
// and its timestamp field, if any. A timestamp in epoch milliseconds and
// one as an ISO 8601 string make the same key for the same instant, as
// Copilot CLI sends one stop to its two registrations. A turn id is no
// stop's identity: every stop of a Codex turn carries the same one.
func StopKey(data []byte, timestamp json.RawMessage) string {
	if ms, ok := instant(timestamp); ok {
		return fmt.Sprintf("%s%d", instantKey, ms)
	}
	return fmt.Sprintf("%s%08x-%d", bytesKey, crc32.ChecksumIEEE(data), len(data))
}

// instant reads a timestamp as epoch milliseconds: a number, or an
// RFC 3339 string.
func instant(raw json.RawMessage) (int64, bool) {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return 0, false
	}
	switch v := v.(type) {
	case float64:
		if v > 0 && v < 1e15 {
			return int64(v), true
		}
	case string:
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t.UnixMilli(), true
		}
	}
	return 0, false
}

// WithTranscript is a stop key with the transcript's size and time added
// to a bytes key when the input names a transcript: a stop that brings the
// same bytes as the last one, after the host wrote the agent's next
// message, is another stop.
func WithTranscript(key, transcript string) string {
	if !strings.HasPrefix(key, bytesKey) || transcript == "" {
		return key
	}
	fi, err := os.Stat(transcript)
	if err != nil || !fi.Mode().IsRegular() {
		return key
	}
	return fmt.Sprintf("%s%s%d.%d", key, transcriptMark, fi.Size(), fi.ModTime().UnixNano())
}

// SameStop reports whether a stop with this key, whose evaluation began at
// started, is the stop a answered. A key that names one stop (its instant,
// or its bytes and the transcript as it was) is that stop for a minute. A
// key of bytes alone is only while the two evaluations ran at once: this
// one began before a's verdict was given. A host waits for a verdict before
// the agent can stop again, so two stops never overlap.
func (a *Answered) SameStop(key string, started, now time.Time) bool {
	if a == nil || key == "" || key != a.Key {
		return false
	}
	at := time.Unix(0, a.At)
	if strings.HasPrefix(key, instantKey) {
		return now.Sub(at) < sameStopWindow
	}
	// Claude Code writes its transcript behind the hooks, so two stops of
	// a turn can find it unchanged: only evaluations that overlapped in
	// time are one stop, the second started before the first answered.
	return started.Before(at)
}

// Verdict is the verdict a gave.
func (a *Answered) Verdict() criteria.Verdict {
	return criteria.Verdict{OK: a.OK, Reason: a.Reason, Rule: a.Rule, Unfinished: a.Unfinished}
}
