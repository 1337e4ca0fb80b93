package memory

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/usage"
	"github.com/loophook/loophook/internal/file"
)

// Budget is what a person's approved .loophook.json asks loophook to
// measure for a loop (SPEC section 6); a zero field is no limit.
type Budget = config.Budget

// AnyBudget reports whether the budget sets any limit.
func AnyBudget(b Budget) bool { return b.Tokens > 0 || b.Turns > 0 || b.Duration > 0 }

// budgetFile is the loop's budget record in the store: like the contract,
// the loop's and not one session's, so it spans sessions.
const budgetFile = ".budget"

// keepSources caps the files a budget record follows; the tokens of one
// dropped stay in Closed.
const keepSources = 32

// maxSummed caps a host's summed usage file (Droid's settings), a few KiB.
const maxSummed = 1 << 20

// budgetRecord is what the hook has measured for a loop since its
// contract began.
type budgetRecord struct {
	Began int64 `json:"began"` // when the contract began, Unix nanoseconds
	// First is when the hook first saw the loop in a session (its first
	// session start or stop), Unix nanoseconds: the duration counts from
	// it, not from init (SPEC section 6). 0 in a record made before it.
	First  int64       `json:"first,omitempty"`
	Turns  int64       `json:"turns"` // stops blocked since
	Closed usage.Usage `json:"closed"`
	// Unrecorded: the host of the loop's last stop records no tokens.
	Unrecorded bool `json:"unrecorded,omitempty"`
	// Sources are the hosts' files of the loop's sessions, each read as
	// far as its cursor.
	Sources []usageSource `json:"sources,omitempty"`
}

// usageSource is one host file of a session and what it holds for the loop.
type usageSource struct {
	Path   string       `json:"path"`
	Cursor usage.Cursor `json:"cursor"`
	// Base is, for a host that keeps a session's sum, that sum when the
	// file was first seen after the contract began: the loop's part is
	// the rest.
	Base   usage.Usage `json:"base"`
	Read   int64       `json:"read"` // when last read, Unix seconds
	Summed bool        `json:"summed,omitempty"`
}

func (s usageSource) tokens() usage.Usage { return s.Cursor.Sum.Sub(s.Base) }

// tokens is the loop's tokens over every file.
func (r budgetRecord) tokens() usage.Usage {
	sum := r.Closed
	for _, s := range r.Sources {
		sum = sum.Add(s.tokens())
	}
	return sum
}

// Measured is a loop's budgets as the hook measured them at one stop.
type Measured struct {
	Budgets []criteria.Measured
	Tokens  usage.Usage // the tokens counted, by kind
}

// Measure measures the loop's budgets at a stop of session: it reads what
// the host wrote in src since the last stop, and with remember keeps the
// cursors. src is nil for a host that records no tokens. A contract that
// began since the record was made starts it anew.
func (s Store) Measure(b Budget, src *usage.Source, session string, remember bool, now time.Time) (Measured, error) {
	var m Measured
	err := s.updateBudget(remember, now, func(r *budgetRecord, fresh bool) error {
		var err error
		switch {
		case src != nil && src.Path != "":
			r.Unrecorded = false
			if b.Tokens > 0 {
				if err = r.read(*src, fresh, now); err != nil {
					err = fmt.Errorf(usageUnreadable, src.Path, err)
				}
			}
		case src == nil && session != "":
			// A stop of a host that records no tokens.
			r.Unrecorded = true
		}
		m = r.measured(b, now)
		return err
	})
	return m, err
}

// CountTurn counts a stop the hook blocked.
func (s Store) CountTurn(now time.Time) error {
	return s.updateBudget(true, now, func(r *budgetRecord, _ bool) error {
		r.Turns++
		return nil
	})
}

// measured is the record's figures for the budget.
func (r *budgetRecord) measured(b Budget, now time.Time) Measured {
	var m Measured
	m.Tokens = r.tokens()
	if b.Tokens > 0 {
		m.Budgets = append(m.Budgets, criteria.Measured{Measure: criteria.MeasureTokens, Used: m.Tokens.Total(), Limit: b.Tokens, Unrecorded: r.Unrecorded})
	}
	if b.Turns > 0 {
		m.Budgets = append(m.Budgets, criteria.Measured{Measure: criteria.MeasureTurns, Used: r.Turns, Limit: int64(b.Turns)})
	}
	if b.Duration > 0 {
		m.Budgets = append(m.Budgets, criteria.Measured{Measure: criteria.MeasureDuration, Used: max(0, now.UnixNano()-cmp.Or(r.First, r.Began)), Limit: int64(b.Duration)})
	}
	return m
}

// read reads the host's file from where the last stop left it.
func (r *budgetRecord) read(src usage.Source, fresh bool, now time.Time) error {
	i := slices.IndexFunc(r.Sources, func(s usageSource) bool { return s.Path == src.Path })
	if i < 0 {
		r.Sources = append(r.Sources, usageSource{Path: src.Path})
		i = len(r.Sources) - 1
	}
	s := &r.Sources[i]
	s.Read = now.Unix()
	if src.Summed {
		data, err := file.Read(src.Path, maxSummed)
		if file.Absent(err) {
			return nil
		}
		if err != nil {
			return err
		}
		sum, ok := usage.Droid(data)
		if !ok {
			return nil
		}
		s.Summed = true
		if fresh && s.Cursor.Offset == 0 {
			// First seen as the contract begins: what the session
			// spent before is not the loop's.
			s.Base = sum
		}
		s.Cursor.Sum, s.Cursor.Offset = sum, 1
		return nil
	}
	if src.Await != nil {
		await(src.Await)
	}
	f, fi, err := file.Open(src.Path)
	if file.Absent(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	size := fi.Size()
	c, _, err := usage.Read(f, size, s.Cursor, time.Unix(0, r.Began), src.Format)
	if err != nil {
		return err
	}
	s.Cursor = c
	r.prune()
	return nil
}

// prune keeps the record's sources to keepSources, the most recently read.
func (r *budgetRecord) prune() {
	if len(r.Sources) <= keepSources {
		return
	}
	slices.SortStableFunc(r.Sources, func(a, b usageSource) int { return int(b.Read - a.Read) })
	for _, s := range r.Sources[keepSources:] {
		r.Closed = r.Closed.Add(s.tokens())
	}
	r.Sources = r.Sources[:keepSources]
}

// Waiting for a host that writes its file behind the hook: how long at
// most, and how often to look.
const (
	awaitLimit = 200 * time.Millisecond
	awaitPoll  = 10 * time.Millisecond
)

// await waits, up to awaitLimit, until the host's file holds this stop's
// reply. Claude Code writes its transcript behind the hook (the reply is
// missing at about a third of stops, for up to some 50 ms): without the
// wait a budget would end the loop a turn late.
func await(ready func() bool) {
	deadline := time.Now().Add(awaitLimit)
	for !ready() && time.Now().Before(deadline) {
		time.Sleep(awaitPoll)
	}
}

// updateBudget reads the loop's budget record, lets next change it and,
// with remember, writes it, under the record's lock. fresh is true when
// the record starts anew: there was none, or the loop's contract began
// after it was made.
func (s Store) updateBudget(remember bool, now time.Time, next func(r *budgetRecord, fresh bool) error) error {
	began, _ := s.Began()
	path := filepath.Join(s.Dir, budgetFile)
	if remember || s.Dir == "" {
		if err := s.ensureDir(); err != nil {
			var r budgetRecord
			return errors.Join(next(&r, true), err)
		}
		unlock, err := lockedfile.MutexAt(path + ".lock").Lock()
		if err != nil {
			var r budgetRecord
			return errors.Join(next(&r, true), fmt.Errorf(memoryNoLock, err))
		}
		defer unlock()
	}
	var r budgetRecord
	var note error
	data, err := file.Read(path, maxMemory)
	switch {
	case file.Absent(err):
	case err != nil:
		note = fmt.Errorf(budgetUnreadable, path, err)
	case json.Unmarshal(data, &r) != nil:
		note = fmt.Errorf(budgetDamaged, path)
		r = budgetRecord{}
	}
	fresh := r.Began == 0 || (!began.IsZero() && began.UnixNano() != r.Began)
	if fresh {
		r = r.anew(began, now)
	}
	err = next(&r, fresh)
	if !remember {
		return errors.Join(note, err)
	}
	out, merr := json.Marshal(r)
	if merr != nil {
		return merr
	}
	if werr := file.WriteUnsynced(path, append(out, '\n'), 0o600); werr != nil {
		return errors.Join(err, fmt.Errorf(memoryNoWrite, werr))
	}
	return errors.Join(note, err)
}

// anew is the record for a contract that began at began (now, when the
// contract does not say): nothing counted, but every file's cursor kept,
// since what was read before was written before the contract began.
func (r budgetRecord) anew(began, now time.Time) budgetRecord {
	if began.IsZero() {
		began = now
	}
	// The record is made at the hook's first call that sees the loop: its
	// clock starts here, however long ago init wrote the loop.
	n := budgetRecord{Began: began.UnixNano(), First: now.UnixNano()}
	for _, s := range r.Sources {
		if s.Summed {
			// The session's sum so far is the old contract's.
			s.Base = s.Cursor.Sum
			n.Sources = append(n.Sources, s)
			continue
		}
		s.Cursor.Sum, s.Base = usage.Usage{}, usage.Usage{}
		for i := range s.Cursor.Recent {
			s.Cursor.Recent[i].Usage = usage.Usage{}
		}
		n.Sources = append(n.Sources, s)
	}
	return n
}
