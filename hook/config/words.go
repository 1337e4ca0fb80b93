package config

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Every sentence a person reads from this package.

const (
	problemSyntax             = "not JSON with comments: %v"
	problemDuplicateName      = "/checks/%d/name: %q is the name of /checks/%d too; each check needs a name of its own"
	problemNotRegular         = "not a regular file"
	problemTooLarge           = "larger than %d KiB"
	problemRead               = "read %s: %w"
	problemNoConfigDir        = "no configuration directory to keep approvals in: %w"
	problemApprovalUnreadable = "read the approval %s: %w"
	problemApprovalDamaged    = "the approval %s is damaged; run loophook accept again"
	problemApprovalWrite      = "keep the approval: %w"
	problemApprovalRemove     = "withdraw the approval: %w"
	problemApprovedUnreadable = "the approved version cannot be read: %s"

	diffRemoved   = "check %s removed (it ran %s)"
	diffAdded     = "check %s added: it runs %s"
	diffChanged   = "check %s changed: %s, now %s"
	diffCheck     = "runs %s within %s"
	diffGuards    = ", guarding %s"
	diffExclusive = ", alone (exclusive)"
	diffBudget    = "budget %s: %s, now %s"
	diffNoLimit   = "no limit"
	diffLayout    = "only comments or layout changed"

	tellUnapproved = "%s is not approved, so none of its checks run and none of its budgets apply: a person runs loophook accept in a terminal to approve it"
	tellChanged    = "%s changed since it was approved; the approved version stays in force until a person runs loophook accept in a terminal. What changed: %s"
	tellUnparsable = "%s cannot be read (%s); the approved version stays in force until a person fixes the file and runs loophook accept in a terminal"
	tellDeleted    = "%s was deleted; the approved version stays in force (a person who wants no checks runs loophook accept in a terminal)"
	tellProblems   = " (%s)"
	tellIgnored    = "%s is not obeyed: loophook obeys only the .loophook.json at the top of the work tree, %s"
)

// Tell is what the person must be told about the file, in one message;
// "" when the file is in force as it is, or there is none.
func (f InForce) Tell() string {
	said, ignored := f.tellState(), f.TellIgnored()
	switch {
	case said == "":
		return ignored
	case ignored == "":
		return said
	}
	return said + ". " + ignored
}

// TellIgnored names the .loophook.json files that are not obeyed; "" when
// there are none.
func (f InForce) TellIgnored() string {
	if len(f.Ignored) == 0 {
		return ""
	}
	return fmt.Sprintf(tellIgnored, strings.Join(f.Ignored, ", "), filepath.ToSlash(f.Path))
}

func (f InForce) tellState() string {
	switch f.State {
	case StateUnapproved:
		s := fmt.Sprintf(tellUnapproved, filepath.ToSlash(f.Path))
		if len(f.Problems) > 0 {
			s += fmt.Sprintf(tellProblems, strings.Join(f.Problems, "; "))
		}
		return s
	case StateChanged:
		changes := f.Changes
		if len(changes) == 0 {
			changes = []string{diffLayout}
		}
		return fmt.Sprintf(tellChanged, filepath.ToSlash(f.Path), strings.Join(changes, "; "))
	case StateUnparsable:
		return fmt.Sprintf(tellUnparsable, filepath.ToSlash(f.Path), strings.Join(f.Problems, "; "))
	case StateDeleted:
		return fmt.Sprintf(tellDeleted, filepath.ToSlash(f.Path))
	}
	return ""
}

// Said is what a person's approval did, a line each, naming the file as
// path: none when there was nothing to approve.
func (a Accepted) Said(path string) []string {
	var line string
	switch {
	case a.Nothing:
		return nil
	case a.None:
		line = "%s is gone, and so are its checks and budgets: none are in force"
	case a.First:
		line = "%s is approved: its checks run before a loop may end"
	case len(a.Changes) == 0:
		return []string{fmt.Sprintf("%s already is the approved version; nothing changed", path)}
	default:
		line = "%s is approved in its new version"
	}
	return append([]string{fmt.Sprintf(line, path)}, a.Changes...)
}

// Said is what withdrawing an approval did, a line each, naming the file
// as path.
func (r Revoked) Said(path string) []string {
	switch {
	case r.Withdrawn == nil:
		return []string{fmt.Sprintf("%s has no approval to withdraw; nothing changed", path)}
	case r.Withdrawn.None:
		return []string{fmt.Sprintf("the approval of having no %s is withdrawn; nothing else changed", path)}
	case !r.Exists:
		return append([]string{fmt.Sprintf("the approval of %s (now gone) is withdrawn: none of its checks run and none of its budgets apply", path)}, r.Changes...)
	}
	return append([]string{fmt.Sprintf("%s is no longer approved: none of its checks run and none of its budgets apply until a person runs loophook accept again", path)}, r.Changes...)
}
