package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/loophook/loophook/internal/file"
)

// State is how a work tree's .loophook.json stands to its approval.
type State string

// The states of a .loophook.json.
const (
	StateNone       State = "none"       // no file, and none approved
	StateApproved   State = "approved"   // the file is the approved text
	StateUnapproved State = "unapproved" // a file never approved: nothing in force
	StateChanged    State = "changed"    // the file differs from the approved text
	StateUnparsable State = "unparsable" // the file cannot be read; the approved version applies
	StateDeleted    State = "deleted"    // the approved file is gone; its version applies
)

// InForce is the version of a work tree's .loophook.json that loophook
// obeys, and what the person must be told about the file.
type InForce struct {
	Path  string // the file's absolute path
	State State
	// Config is the approved version in force; nil when none is.
	Config   *Config
	Approval *Approval // nil when none was ever kept
	// Problems say why the file cannot be used as it is (StateUnparsable,
	// or an unapproved file that cannot be read).
	Problems []string
	// Changes say what the file changes from the approved version.
	Changes []string
	// Ignored are the .loophook.json files between the loop's state and
	// the top, which are not obeyed (LoadFor).
	Ignored []string
}

// LoadFor is Load, naming in Ignored each .loophook.json between from
// (the directory of the loop's state, or where the person is) and top:
// only top's is obeyed, and a person must not believe another guards the
// loop.
func LoadFor(top, from string) InForce {
	f := Load(top)
	f.Ignored = ignored(file.PhysicalDir(top), file.PhysicalDir(from))
	return f
}

// ignored lists the .loophook.json files in from and the directories
// above it, up to top, top's own left out.
func ignored(top, from string) []string {
	rel, err := filepath.Rel(top, from)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	var found []string
	for d := from; d != top && filepath.Dir(d) != d; d = filepath.Dir(d) {
		p := filepath.Join(d, File)
		if _, err := os.Lstat(p); err == nil {
			found = append(found, p)
		}
	}
	return found
}

// Load returns the version of top's .loophook.json in force. It never
// fails: what cannot be read becomes Problems, and an approval that
// cannot be read leaves nothing in force.
func Load(top string) InForce {
	f := InForce{Path: pathIn(top)}
	data, exists, readErr := readFile(f.Path)
	a, err := readApproval(f.Path)
	if err != nil {
		f.Problems = append(f.Problems, err.Error())
	}
	if a != nil && !a.None {
		f.Approval = a
		if c, err := Parse([]byte(a.Text)); err == nil {
			f.Config = c
		} else {
			f.Problems = append(f.Problems, fmt.Sprintf(problemApprovedUnreadable, problemsOf(err)[0]))
		}
	} else if a != nil {
		f.Approval = a
	}
	switch {
	case !exists && f.Config == nil:
		f.State = StateNone
		return f
	case !exists:
		f.State = StateDeleted
		f.Changes = Diff(f.Config, nil)
		return f
	case readErr == nil && f.Config != nil && string(data) == f.Approval.Text:
		f.State = StateApproved
		return f
	}
	var current *Config
	if readErr == nil {
		current, readErr = Parse(data)
	}
	switch {
	case readErr != nil:
		f.Problems = append(f.Problems, problemsOf(readErr)...)
		f.State = StateUnparsable
		if f.Config == nil {
			f.State = StateUnapproved
		}
	case f.Config == nil:
		f.State = StateUnapproved
	default:
		f.State = StateChanged
		f.Changes = Diff(f.Config, current)
	}
	return f
}

// ApprovedAbove is the nearest directory at or above dir, a physical path,
// where a person's approval of its .loophook.json, or of having none there,
// is kept, as the top of a git work tree, or at own, a physical path ("" for
// none); "" when none is. One approved outside git is the rules of the
// loops started in its directory alone (SPEC section 6): the repositories
// below it are none of its, until the directory is made a repository. It asks for each directory's approval by one
// lstat, the cost the depth however many approvals a person has made, and
// reads no file's text but the one found.
func ApprovedAbove(dir, own string) string {
	root, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	approved := filepath.Join(root, dirName, "approved")
	if _, err := os.Lstat(approved); err != nil {
		return "" // no approval at all: most users, most stops
	}
	path := []byte(approved + string(filepath.Separator))
	base := len(path)
	for d := dir; ; d = filepath.Dir(d) {
		path = appendApprovalName(path[:base], d)
		if _, err := os.Lstat(string(path)); err == nil {
			if a, _ := readApproval(filepath.Join(d, File)); a != nil && (!a.Outside || d == own || !outsideGit(d)) {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// Checks are the checks in force; nil when none are.
func (f InForce) Checks() []Check {
	if f.Config == nil {
		return nil
	}
	return f.Config.Checks
}

// problemsOf is an error as problem lines: each of a schema failure's.
func problemsOf(err error) []string {
	var inv *Invalid
	if errors.As(err, &inv) {
		return inv.Problems
	}
	return []string{err.Error()}
}

// Accepted is what a person's approval changed.
type Accepted struct {
	Path    string
	First   bool     // nothing was approved before
	Changes []string // what the approved version changes; empty: nothing
	None    bool     // the person approved having no file
	Nothing bool     // there was no file and nothing approved: nothing done
}

// Approve makes the current text of top's .loophook.json the approved
// version, or, when the file is gone, approves having none. It is the
// person's act of loophook accept; the caller makes sure a person runs it.
// A file that cannot be read is refused, with its problems.
func Approve(top string) (Accepted, error) {
	path := pathIn(top)
	acc := Accepted{Path: path}
	prev, err := readApproval(path)
	if err != nil {
		return acc, err
	}
	var was *Config
	if prev != nil && !prev.None {
		was, _ = Parse([]byte(prev.Text))
	}
	acc.First = prev == nil || prev.None
	data, exists, err := readFile(path)
	switch {
	case !exists && acc.First:
		acc.Nothing = true
		return acc, nil
	case !exists:
		acc.None, acc.Changes = true, Diff(was, nil)
		return acc, writeApproval(Approval{Path: path, At: time.Now().UTC(), None: true, Outside: outsideGit(top)})
	case err != nil:
		return acc, fmt.Errorf(problemRead, path, err)
	}
	now, err := Parse(data)
	if err != nil {
		return acc, err
	}
	acc.Changes = Diff(was, now)
	if prev != nil && !prev.None && prev.Text == string(data) {
		acc.Changes = nil
		return acc, nil
	}
	return acc, writeApproval(Approval{Path: path, At: time.Now().UTC(), Text: string(data), Outside: outsideGit(top)})
}

// outsideGit reports whether top, where accept approves, has no .git: it
// is the start directory of a loop outside git, not a work tree's top.
func outsideGit(top string) bool {
	_, err := os.Lstat(filepath.Join(top, ".git"))
	return err != nil
}

// pathIn is the .loophook.json of top, by its physical path: an approval
// is keyed by the directory, however it was named (a link to it; on
// Windows, C:\ or c:\, any case, a short name).
func pathIn(top string) string {
	return file.Physical(filepath.Join(top, File))
}
