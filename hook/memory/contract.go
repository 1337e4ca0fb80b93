package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/internal/file"
)

// contractFile is the loop's contract in the store: a leading dot keeps it
// apart from the sessions' files, whose names never start with one.
const contractFile = ".contract"

// Contract is a loop's contract (SPEC section 5): every criterion the hook
// saw while the loop was unfinished, or what a person accepted since. A
// later state that drops one has it unmet until a person agrees. It ends
// only when its loop ends: the hook let it complete, or a person ran
// cancel or init; after that, the first active state that differs from
// the ended loop's last one starts a new contract. The file is a header
// line, then the names.
type Contract struct {
	contractHeader
	Criteria []string `json:"-"`
}

type contractHeader struct {
	// Spec is the loop's spec when the contract began or was accepted.
	Spec string `json:"spec,omitempty"`
	// Began is when the contract began, Unix nanoseconds: budgets are
	// measured from it.
	Began int64 `json:"began"`
	// Ended says the loop ended; Last is then the progress fingerprint of
	// its last state, which, seen again, starts no new contract.
	Ended bool   `json:"ended,omitempty"`
	Last  string `json:"last,omitempty"`
	// EndedAt is when the loop ended, Unix nanoseconds, and EndedBy how:
	// a rule of the hook's (complete) or a person's command (EndCancel).
	EndedAt int64  `json:"endedAt,omitempty"`
	EndedBy string `json:"endedBy,omitempty"`
	// Told says a stop has answered the end: the ended loop's file, seen
	// again, is then no loop (SPEC section 5), answered as no state.
	Told bool `json:"told,omitempty"`
	// Init says loophook init wrote the loop: no loop system's own
	// command (the hope skill's /loop continue) resumes it.
	Init bool `json:"init,omitempty"`
}

// How a loop ended by a person's command, as EndedBy says it.
const (
	EndCancel = "cancel"
)

// Ending is how a loop's contract ended, for the hook and for status.
type Ending struct {
	At   time.Time
	By   string // the rule that ended it (complete), or EndCancel
	Last string // the progress fingerprint of its last state
	Told bool   // a stop answered the end
}

// ContractChange is what accepting a loop's criteria changed.
type ContractChange struct {
	Removed []string // contract criteria the loop no longer lists
	Added   []string // criteria the contract did not have
	New     bool     // there was no contract under way
}

// ContractCheck is what a stop learns of the loop's contract.
type ContractCheck struct {
	// Removed are the contract's criteria that the loop no longer lists
	// and does not record as met: unmet, for rule unmet.
	Removed []string
	// Began is when the contract began; zero when there is none.
	Began time.Time
}

// Check holds the loop, read with the progress fingerprint progress, to its
// contract. With remember (a stop, a session start) it also keeps the
// contract, under its lock: it grows by every criterion the loop lists
// that the contract lacks, and a new one begins at now when there is none,
// or the last one ended and this state differs from the ended loop's last.
// A dry run only reads. The error is for a note: the check is still right.
func (s Store) Check(l *criteria.Loop, progress string, remember bool, now time.Time) (ContractCheck, error) {
	names := criterionNames(l)
	var check ContractCheck
	err := s.withContract(remember, func(c Contract, found bool) (Contract, bool) {
		switch {
		case found && c.Ended && (progress == c.Last || l.Inactive()):
			// The ended loop's own file, or a stopped one: no loop to hold.
			return c, false
		case !found || c.Ended:
			next := Contract{contractHeader: contractHeader{Spec: l.Spec, Began: now.UnixNano()}, Criteria: names}
			check.Began = now
			return next, len(names) > 0
		}
		if c.Began != 0 {
			check.Began = time.Unix(0, c.Began)
		}
		check.Removed = missing(c.Criteria, slices.Concat(names, l.MetUnlisted))
		added := missing(names, c.Criteria)
		c.Criteria = append(c.Criteria, added...)
		return c, len(added) > 0
	})
	return check, err
}

// EndContract ends the loop's contract at now: its last state had the
// progress fingerprint last, and by says how it ended. The hook calls it
// when it lets a loop complete, having told the end (told); a person's
// cancel ends the loop that was under way, and the next stop tells it.
func (s Store) EndContract(last, by string, told bool, now time.Time) error {
	return s.withContract(true, func(c Contract, found bool) (Contract, bool) {
		if found && c.Ended && c.Last == last && (c.Told || !told) {
			return c, false
		}
		if !(found && c.Ended && c.Last == last) {
			c.EndedAt, c.EndedBy = now.UnixNano(), by
		}
		c.Ended, c.Last, c.Told = true, last, told
		return c, true
	})
}

// EndLoop ends the contract of the loop found, whose state a person's
// command has just written (cancel): that state, seen again, forms none.
func EndLoop(f state.Found) error {
	return For(f.Path).EndContract(state.Load(state.Found{Path: f.Path, Dialect: f.Dialect}).Progress, EndCancel, false, time.Now())
}

// Ending says how the loop's contract ended; false while it has not
// (or there is none). It reads the contract without its lock: a stop
// asks it first, and an ended loop's file costs it nothing more.
func (s Store) Ending() (Ending, bool) {
	c, found, err := s.readHeader()
	if err != nil || !found || !c.Ended {
		return Ending{}, false
	}
	e := Ending{By: c.EndedBy, Last: c.Last, Told: c.Told}
	if c.EndedAt != 0 {
		e.At = time.Unix(0, c.EndedAt)
	}
	return e, true
}

// Began says when the loop's contract began; false when no contract is
// under way, or it does not say (written before it did).
func (s Store) Began() (time.Time, bool) {
	c, found, err := s.readHeader()
	if err != nil || !found || c.Ended || c.Began == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, c.Began), true
}

// Started says when the loop's latest contract began, ended or not; false
// when there is none, or it does not say.
func (s Store) Started() (time.Time, bool) {
	c, found, err := s.readHeader()
	if err != nil || !found || c.Began == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, c.Began), true
}

// Accept makes the loop's criteria its contract, as `loophook accept` and
// `loophook init` do, and says what changed. A contract that cannot be
// read is replaced.
func (s Store) Accept(l *criteria.Loop, now time.Time) (ContractChange, error) {
	names := criterionNames(l)
	var change ContractChange
	err := s.withContract(true, func(c Contract, found bool) (Contract, bool) {
		if !found || c.Ended {
			change = ContractChange{New: true, Added: names}
			c = Contract{}
		} else {
			change = ContractChange{Removed: missing(c.Criteria, names), Added: missing(names, c.Criteria)}
		}
		if c.Spec != l.Spec || c.Began == 0 {
			// A person accepting another spec's criteria starts a new
			// loop: its budgets count from now.
			c.Began = now.UnixNano()
		}
		c.Spec, c.Criteria = l.Spec, names
		return c, true
	})
	return change, err
}

// Begin starts a new contract of the loop's criteria, whatever was there:
// `loophook init` ends the loop that was under way and starts another.
func (s Store) Begin(l *criteria.Loop, now time.Time) error {
	return s.withContract(true, func(Contract, bool) (Contract, bool) {
		return Contract{contractHeader: contractHeader{Spec: l.Spec, Began: now.UnixNano(), Init: true}, Criteria: criterionNames(l)}, true
	})
}

// ByInit reports whether loophook init wrote the loop whose contract is
// the latest, ended or not.
func (s Store) ByInit() bool {
	c, found, err := s.readHeader()
	return err == nil && found && c.Init
}

// withContract reads the contract and lets next compute the new one,
// which it writes when next says so; with lock, all of it under the
// contract's lock. A contract the hook did not write counts as none, and
// is replaced.
func (s Store) withContract(lock bool, next func(c Contract, found bool) (Contract, bool)) error {
	if !lock {
		c, found, err := s.readContract()
		if errors.As(err, new(damagedContract)) {
			next(Contract{}, false)
			return err
		}
		if err != nil {
			return err
		}
		next(c, found)
		return nil
	}
	err := s.withContractLocked(next)
	if err != nil && !errors.As(err, new(damagedContract)) {
		next(Contract{}, false)
	}
	return err // a damaged one was replaced: the note says what was there
}

func (s Store) withContractLocked(next func(Contract, bool) (Contract, bool)) error {
	if err := s.ensureDir(); err != nil {
		return err
	}
	path := filepath.Join(s.Dir, contractFile)
	unlock, err := lockedfile.MutexAt(path + ".lock").Lock()
	if err != nil {
		return fmt.Errorf(memoryNoLock, err)
	}
	defer unlock()
	c, found, damaged := readContractAt(path)
	if damaged != nil && !errors.As(damaged, new(damagedContract)) {
		return damaged
	}
	c, write := next(c, found)
	if !write {
		return damaged
	}
	return errors.Join(damaged, writeContract(path, c))
}

// maxHeader is how much of the contract a look at its header reads: the
// header line, whose spec is a person's request, nearly always fits.
const maxHeader = 16 << 10

// readHeader reads the contract's header line only, for the looks every
// stop takes (has the loop ended?), which need none of its names; a
// header longer than maxHeader is read with the whole file.
func (s Store) readHeader() (c Contract, found bool, err error) {
	if s.Dir == "" {
		return Contract{}, false, nil
	}
	path := filepath.Join(s.Dir, contractFile)
	f, _, err := file.Open(path)
	if err != nil {
		if file.Absent(err) {
			return Contract{}, false, nil
		}
		return readContractAt(path)
	}
	buf := make([]byte, maxHeader)
	n, _ := io.ReadFull(f, buf)
	f.Close()
	line, _, ok := bytes.Cut(buf[:n], []byte("\n"))
	if !ok {
		return readContractAt(path)
	}
	if json.Unmarshal(line, &c.contractHeader) != nil {
		return Contract{}, false, damagedContract{path, contractNotOurs}
	}
	return c, true, nil
}

// readContract reads the loop's contract.
func (s Store) readContract() (c Contract, found bool, err error) {
	if s.Dir == "" {
		return Contract{}, false, nil
	}
	return readContractAt(filepath.Join(s.Dir, contractFile))
}

// readContractAt reads a contract file; found is false when there is none,
// or it is not the hook's (err is then a damagedContract).
func readContractAt(path string) (c Contract, found bool, err error) {
	data, err := file.Read(path, state.MaxSize)
	switch {
	case file.Absent(err):
		return c, false, nil
	case errors.Is(err, file.ErrNotRegular):
		return c, false, damagedContract{path, contractNotRegular}
	case err != nil:
		return c, false, fmt.Errorf(contractUnreadable, path, err)
	}
	text := string(data) // one copy: the names are slices of it
	line, rest, _ := strings.Cut(text, "\n")
	if json.Unmarshal([]byte(line), &c.contractHeader) != nil {
		return Contract{}, false, damagedContract{path, contractNotOurs}
	}
	c.Criteria = make([]string, 0, strings.Count(rest, "\n"))
	for name := range strings.Lines(rest) {
		name = strings.TrimSuffix(name, "\n")
		if len(name) < 2 || name[0] != '"' || name[len(name)-1] != '"' {
			return Contract{}, false, damagedContract{path, contractNotOurs}
		}
		if !strings.ContainsRune(name, '\\') {
			c.Criteria = append(c.Criteria, name[1:len(name)-1])
			continue
		}
		unquoted, err := strconv.Unquote(name)
		if err != nil {
			return Contract{}, false, damagedContract{path, contractNotOurs}
		}
		c.Criteria = append(c.Criteria, unquoted)
	}
	return c, true, nil
}

// damagedContract is a contract file the hook did not write: it is replaced.
type damagedContract struct{ path, what string }

func (e damagedContract) Error() string { return fmt.Sprintf(contractDamaged, e.path, e.what) }

// writeContract writes the header line, then each name quoted on a line
// of its own: a stop reads ten thousand names as slices of one string.
func writeContract(path string, c Contract) error {
	head, err := json.Marshal(c.contractHeader)
	if err != nil {
		return err
	}
	data := append(head, '\n')
	for _, name := range c.Criteria {
		data = append(strconv.AppendQuote(data, name), '\n')
	}
	if err := file.WriteUnsynced(path, data, 0o600); err != nil {
		return fmt.Errorf(memoryNoWrite, err)
	}
	return nil
}

func criterionNames(l *criteria.Loop) []string {
	names := make([]string, 0, l.Criteria.Len())
	for _, c := range l.Criteria {
		names = append(names, c.Name)
	}
	return names
}

// missing returns the names of want that have lacks, in want's order.
func missing(want, have []string) []string {
	if len(want) == 0 || len(want) <= len(have) && slices.Equal(want, have[:len(want)]) {
		return nil // the common case, which needs no set
	}
	set := make(map[string]struct{}, len(have))
	for _, n := range have {
		set[n] = struct{}{}
	}
	var out []string
	for _, n := range want {
		if _, ok := set[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

// Ended says whether the loop's contract ended, and the progress of its
// last state then; found is false when there is no contract. A person-only
// command asks it before an agent may start a loop over this one.
func (s Store) Ended() (ended bool, last string, found bool, err error) {
	c, found, err := s.readContract()
	return c.Ended, c.Last, found, err
}
