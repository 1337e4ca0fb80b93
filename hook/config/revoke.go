package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Revoked is what withdrawing an approval did.
type Revoked struct {
	Path string
	// Withdrawn is the approval withdrawn; nil when there was none.
	Withdrawn *Approval
	// Changes say what is no longer in force: the withdrawn version's
	// checks and budget limits.
	Changes []string
	// Exists says the file is still there: it is now not approved.
	Exists bool
}

// Revoke withdraws the approval of top's .loophook.json (loophook accept
// --revoke), so that the hook no longer obeys any version of it: the file
// is then not approved, as one never accepted. It is a person's act; the
// caller makes sure a person runs it.
func Revoke(top string) (Revoked, error) {
	path := pathIn(top)
	r := Revoked{Path: path}
	_, r.Exists, _ = readFile(path)
	a, err := readApproval(path)
	if err != nil || a == nil {
		return r, err
	}
	at, err := approvalFile(path)
	if err != nil {
		return r, err
	}
	if err := os.Remove(at); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return r, fmt.Errorf(problemApprovalRemove, err)
	}
	r.Withdrawn = a
	if c, err := Parse([]byte(a.Text)); err == nil && !a.None {
		r.Changes = Diff(c, nil)
	}
	return r, nil
}
