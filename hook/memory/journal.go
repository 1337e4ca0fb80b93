package memory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strconv"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/internal/clip"
	"github.com/loophook/loophook/internal/file"
	"github.com/loophook/loophook/internal/jsontext"
)

// JournalFile is the journal's name in the memory directory.
const JournalFile = "journal.jsonl"

// The journal is kept small: past maxJournal bytes, its older half goes.
const (
	maxJournal       = 256 << 10
	maxJournalReason = 300
)

// Entry is one evaluation in the journal: what `loophook why` shows.
type Entry struct {
	Time        time.Time     `json:"time"`
	Session     string        `json:"session"`
	Host        string        `json:"host"`
	Dialect     string        `json:"dialect"`
	OK          bool          `json:"ok"`
	Rule        criteria.Rule `json:"rule"`
	Reason      string        `json:"reason"`
	Fingerprint string        `json:"fingerprint"`
	Changed     bool          `json:"changed"` // the state changed since the session's last evaluation
	Guard       int           `json:"guard"`
	// Budgets are the measured budgets at the verdict.
	Budgets []criteria.Measured `json:"budgets,omitempty"`
}

// Journal is the log of a loop's verdicts, one JSON line each, beside the
// hook's memory. A lost or torn line only loses that line.
type Journal struct{ Dir string }

// Append adds e, dropping the older half of the journal when it has grown
// past its cap, so it never grows without bound. It costs one appending
// write; the trim, a rewrite of 128 KiB, happens once in hundreds of stops.
func (j Journal) Append(e Entry) error {
	e.Reason = clipReason(e.Reason)
	line := e.appendJSON(nil)
	path := filepath.Join(j.Dir, JournalFile)
	size, err := file.Append(path, append(line, '\n'), 0o600)
	if err == nil && size+int64(len(line)) > maxJournal {
		err = j.trim(path)
	}
	return err
}

// clipReason cuts a reason to maxJournalReason bytes on a rune boundary:
// a character cut in two would be kept as U+FFFD.
func clipReason(s string) string {
	return clip.Clip(s, maxJournalReason)
}

// appendJSON appends e as one JSON object, the fields in their order. It
// is written out rather than left to encoding/json, whose reflection over
// a type it has not met costs a hook's one evaluation more than the rest of
// the journal.
func (e Entry) appendJSON(b []byte) []byte {
	b = append(b, `{"time":"`...)
	b = e.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","session":`...)
	b = jsontext.AppendString(b, e.Session)
	b = append(b, `,"host":`...)
	b = jsontext.AppendString(b, e.Host)
	b = append(b, `,"dialect":`...)
	b = jsontext.AppendString(b, e.Dialect)
	b = append(b, `,"ok":`...)
	b = strconv.AppendBool(b, e.OK)
	b = append(b, `,"rule":`...)
	b = jsontext.AppendString(b, string(e.Rule))
	b = append(b, `,"reason":`...)
	b = jsontext.AppendString(b, e.Reason)
	b = append(b, `,"fingerprint":`...)
	b = jsontext.AppendString(b, e.Fingerprint)
	b = append(b, `,"changed":`...)
	b = strconv.AppendBool(b, e.Changed)
	b = append(b, `,"guard":`...)
	b = strconv.AppendInt(b, int64(e.Guard), 10)
	if len(e.Budgets) > 0 {
		b = append(b, `,"budgets":[`...)
		for i, m := range e.Budgets {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"measure":`...)
			b = jsontext.AppendString(b, string(m.Measure))
			b = append(b, `,"used":`...)
			b = strconv.AppendInt(b, m.Used, 10)
			b = append(b, `,"limit":`...)
			b = strconv.AppendInt(b, m.Limit, 10)
			if m.Unrecorded {
				b = append(b, `,"unrecorded":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// trim keeps the newer half of the journal's lines.
func (j Journal) trim(path string) error {
	data, err := file.Read(path, 2*maxJournal)
	if errors.Is(err, file.ErrTooLarge) {
		// Twice its cap: not grown by the hook alone; it starts afresh.
		return file.WriteUnsynced(path, nil, 0o600)
	}
	if err != nil {
		return err
	}
	cut := len(data) - maxJournal/2
	if cut <= 0 {
		return nil
	}
	if i := bytes.IndexByte(data[cut:], '\n'); i >= 0 {
		cut += i + 1
	}
	return file.WriteUnsynced(path, data[cut:], 0o600)
}

// Read returns the journal's entries, oldest first, for the session ("" for
// every session); lines that do not read are passed over.
func (j Journal) Read(session string) ([]Entry, error) {
	data, err := file.Read(filepath.Join(j.Dir, JournalFile), 2*maxJournal)
	if file.Absent(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil && (session == "" || e.Session == session) {
			out = append(out, e)
		}
	}
	return out, nil
}
