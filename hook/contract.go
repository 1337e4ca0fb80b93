package hook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/loophook/loophook/criteria"
)

// contractFile is the loop's contract in the store: a leading dot keeps it
// apart from the sessions' files, whose names never start with one.
const contractFile = ".contract"

// maxHeader caps the contract's first line, which holds only hashes.
const maxHeader = 4 << 10

// Contract is a loop's criteria as first seen or as a person accepted them
// (SPEC section 5): a later state that drops one has it unmet until a person
// agrees. The file is a header line, which is all a stop needs to read
// while the state still lists the whole contract, then the names.
type Contract struct {
	contractHeader
	Criteria []string `json:"-"`
}

type contractHeader struct {
	Spec string `json:"spec"` // hash of the loop's spec
	Sum  string `json:"sum"`  // hash of the contract's criteria, as a set
	// Covered is the hash of the last criteria found to hold the whole
	// contract (more were added), so that the next stop with those
	// criteria need not read the names again.
	Covered string `json:"covered,omitempty"`
	// Began is when the contract began, Unix nanoseconds: the budgets of
	// .loophook.json count from then (0 in a contract written before).
	Began int64 `json:"began,omitempty"`
}

// ContractChange is what accepting a loop's criteria changed.
type ContractChange struct {
	Removed []string // contract criteria the loop no longer lists
	Added   []string // criteria the contract did not have
	New     bool     // there was no contract
}

// Removed returns the contract's criteria that the loop no longer lists,
// for rule unmet. With remember (a stop) it also keeps the contract: it
// makes one of the loop's criteria when there is none (or it is damaged),
// and a new one when the loop is a new loop (its spec changed and it
// shares no criterion with the contract); a dry run only reads. The error
// is for a note: the removed criteria are still right.
func (s Store) Removed(l *criteria.Loop, remember bool) ([]string, error) {
	names := criterionNames(l)
	now := Contract{contractHeader: contractHeader{Spec: hashOf(l.Spec), Sum: setSum(names), Began: time.Now().UnixNano()}, Criteria: names}
	// A contract the hook did not write counts as none, and is replaced.
	fresh := func(err error) ([]string, error) {
		if remember && len(names) > 0 {
			err = errors.Join(err, s.writeContract(nil, now))
		}
		return nil, err
	}
	head, dir, err := s.readHeader()
	switch {
	case errors.As(err, new(damagedContract)):
		return fresh(err)
	case err != nil:
		return nil, err
	case dir == "":
		return fresh(nil)
	case now.Sum == head.Sum || now.Sum == head.Covered:
		return nil, nil
	}
	c, err := readContract(filepath.Join(dir, contractFile))
	switch {
	case errors.As(err, new(damagedContract)):
		return fresh(err)
	case err != nil:
		return nil, err
	}
	removed := missing(c.Criteria, names)
	switch {
	case len(removed) > 0 && (now.Spec == head.Spec || len(removed) < len(c.Criteria) || len(names) == 0):
		return removed, nil
	case !remember:
		return nil, nil
	case len(removed) == 0:
		// Criteria were added: remember that these hold the contract.
		c.Covered = now.Sum
		return nil, s.writeContract(&head, c)
	}
	// A new loop: its criteria are the contract.
	return nil, s.writeContract(&head, now)
}

// Accept makes the loop's criteria its contract, as `loophook accept` and
// `loophook init` do, and says what changed. A contract that cannot be
// read is replaced.
func (s Store) Accept(l *criteria.Loop) (ContractChange, error) {
	names := criterionNames(l)
	change := ContractChange{New: true, Added: names}
	next := Contract{contractHeader: contractHeader{Spec: hashOf(l.Spec), Sum: setSum(names), Began: time.Now().UnixNano()}, Criteria: names}
	if _, dir, err := s.readHeader(); err == nil && dir != "" {
		if old, err := readContract(filepath.Join(dir, contractFile)); err == nil {
			change = ContractChange{Removed: missing(old.Criteria, names), Added: missing(names, old.Criteria)}
			if old.Spec == next.Spec && old.Began != 0 {
				// The same loop's criteria accepted: its budgets go on.
				next.Began = old.Began
			}
		}
	}
	return change, s.writeContract(nil, next)
}

// Began returns when the loop's contract began; false when there is no
// contract, or it does not say.
func (s Store) Began() (time.Time, bool) {
	head, dir, err := s.readHeader()
	if err != nil || dir == "" || head.Began == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, head.Began), true
}

// readHeader reads the contract's first line from the first directory of
// the store that has one; dir is "" when none has.
func (s Store) readHeader() (head contractHeader, dir string, err error) {
	for _, d := range s.dirs() {
		data, err := ReadRegular(filepath.Join(d, contractFile), maxHeader)
		if errors.Is(err, ErrTooLarge) {
			// Only the first line is wanted: read it from a longer file.
			data, err = firstLine(filepath.Join(d, contractFile))
		}
		path := filepath.Join(d, contractFile)
		switch {
		case absent(err):
			continue
		case errors.Is(err, errNotRegular):
			return head, "", damagedContract{path, contractNotRegular}
		case err != nil:
			return head, "", fmt.Errorf(contractUnreadable, path, err)
		}
		line, _, _ := bytes.Cut(data, []byte("\n"))
		if json.Unmarshal(line, &head) != nil || head.Sum == "" {
			return head, "", damagedContract{path, contractNotOurs}
		}
		return head, d, nil
	}
	return head, "", nil
}

// damagedContract is a contract file the hook did not write: it is replaced.
type damagedContract struct{ path, what string }

func (e damagedContract) Error() string { return fmt.Sprintf(contractDamaged, e.path, e.what) }

// firstLine reads a file's first line, up to maxHeader bytes.
func firstLine(path string) ([]byte, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, maxHeader).ReadSlice('\n')
	if err != nil {
		return nil, err
	}
	return line, nil
}

// readContract reads the whole contract.
func readContract(path string) (Contract, error) {
	var c Contract
	data, err := ReadRegular(path, MaxState)
	if err != nil {
		return c, fmt.Errorf(contractUnreadable, path, err)
	}
	line, rest, _ := bytes.Cut(data, []byte("\n"))
	if json.Unmarshal(line, &c.contractHeader) != nil || json.Unmarshal(rest, &c.Criteria) != nil {
		return c, damagedContract{path, contractNotOurs}
	}
	return c, nil
}

// writeContract writes c to the first directory of the store that can be
// written, under the contract's lock. With was set, it writes only if the
// contract there still has that header: a person's accept that came in
// between wins.
func (s Store) writeContract(was *contractHeader, c Contract) error {
	var first error
	for _, dir := range s.dirs() {
		err := s.writeContractIn(dir, was, c)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = errors.New(memoryNowhere)
	}
	return first
}

func (s Store) writeContractIn(dir string, was *contractHeader, c Contract) error {
	if err := s.ensureDir(dir); err != nil {
		return err
	}
	path := filepath.Join(dir, contractFile)
	unlock, err := lockedfile.MutexAt(path + ".lock").Lock()
	if err != nil {
		return fmt.Errorf(memoryNoLock, err)
	}
	defer unlock()
	if was != nil {
		if head, d, err := s.readHeader(); err != nil || d != dir || head != *was {
			return nil
		}
	}
	head, err := json.Marshal(c.contractHeader)
	if err != nil {
		return err
	}
	names, err := json.Marshal(c.Criteria)
	if err != nil {
		return err
	}
	data := append(append(append(head, '\n'), names...), '\n')
	if err := writeFileAtomic(path, data, 0o600, false); err != nil {
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

// missing returns the names of want that have is lacks, in want's order.
func missing(want, have []string) []string {
	if len(want) == 0 {
		return nil
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

// setSum hashes distinct names as a set: the sum of each name's hash does
// not depend on their order, and the count goes beside it. A name's hash is
// its CRC-32C and its CRC-32, which the CPU computes for a state of ten
// thousand criteria in a fraction of a millisecond.
func setSum(names []string) string {
	var sum uint64
	for _, n := range names {
		sum += nameHash(n)
	}
	return fmt.Sprintf("%016x-%d", sum, len(names))
}

func hashOf(s string) string { return fmt.Sprintf("%016x", nameHash(s)) }

// nameHash is FNV-1a: no table to build at the start of every hook call,
// as a CRC-32C's would be.
func nameHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
