package status

import (
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/checks"
	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/state"
)

// Timeline is the last n evaluations of the loop found, of the session
// named ("" for every session), oldest first; never nil.
func Timeline(found state.Found, session string, n int) ([]memory.Entry, error) {
	entries, err := memory.For(found.Path).Journal().Read(session)
	if err != nil {
		return nil, err
	}
	if entries == nil {
		return []memory.Entry{}, nil
	}
	return entries[max(0, len(entries)-n):], nil
}

// CheckFailed reports whether a check's failure decided one of entries.
func CheckFailed(entries []memory.Entry) bool {
	return slices.ContainsFunc(entries, func(e memory.Entry) bool { return e.Rule == criteria.RuleCheckFailed })
}

// failedChecks are the last results of the checks in force at top whose
// last run failed.
func failedChecks(top string) []checks.Result {
	var failed []checks.Result
	for _, r := range checks.Last(top, config.Load(top).Checks()) {
		if !r.Passed() {
			failed = append(failed, r)
		}
	}
	return failed
}

// LoopBegan is when the loop now in the file found began, ended or not;
// zero when the hook does not know.
func LoopBegan(found state.Found) time.Time {
	began, _ := memory.For(found.Path).Started()
	return began
}

// Vanished is the loop whose state file was at path and is gone, when its
// journal is kept: why shows a vanished loop's verdicts too.
func Vanished(path string) (state.Found, bool) {
	if path == "" {
		return state.Found{}, false
	}
	if _, err := os.Lstat(path); err == nil {
		return state.Found{}, false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return state.Found{}, false
	}
	entries, err := memory.For(abs).Journal().Read("")
	if err != nil || len(entries) == 0 {
		return state.Found{}, false
	}
	return state.Found{Path: abs}, true
}
