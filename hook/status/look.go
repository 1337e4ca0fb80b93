package status

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/refusal"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/internal/file"
)

// Look is status's report of the loop found, as session sees it: the
// hook's evaluation as a dry run of the turn's first stop, running no
// check, with the session's memory, the .loophook.json in force and the
// host that last evaluated the session. note is told what could not be
// read.
func Look(o hook.Options, found state.Found, session string, note func(error)) Report {
	mem, seen, err := memory.For(found.Path).Read(session)
	if err != nil {
		note(err)
	}
	// The file found, read as the dialect it was found as.
	o.StatePath, o.Dialect = found.Path, found.Dialect.Name
	o.NoChecks = true // a look runs no command; the checks' last results show
	r := hook.Evaluate(o, hook.Input{SessionID: session}, false)
	st := reportOf(r, o.Limits, found.Path, session, mem, seen)
	if st.Ended = endedOf(r.Loaded); st.Ended != nil && st.LastRule == "" {
		// A session that never stopped in it: the rule that ended the loop,
		// or that told a person's cancel.
		st.LastRule = criteria.RuleComplete
		if st.Ended.How == memory.EndCancel {
			st.LastRule = criteria.RuleInactive
		}
	}
	st.Config = configOf(state.Top(o.Dir), filepath.Dir(found.Path))
	st.Host = lastHost(found, session)
	return st
}

// Replay is the hook input that eval --input replays: the file name, or
// stdin for "-", read in the host's wire.
func Replay(name string, stdin io.Reader, h hook.Wire) (hook.Input, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return hook.Input{}, refusal.New(hintInput, errReadInput, name, file.PathCause(err))
	}
	in, err := h.ReadInput(bytes.NewReader(data))
	if err != nil {
		return in, refusal.New(hintInputObject, "%s: %v", name, err)
	}
	return in, nil
}

// Watch calls draw whenever the file at path changes its size or time,
// polling twice a second, and first at once; again says it drew before.
// It returns never: the person interrupts it.
func Watch(path string, draw func(again bool)) {
	var last string
	for {
		stamp := "missing"
		if fi, err := os.Stat(path); err == nil {
			stamp = fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
		}
		if stamp != last {
			draw(last != "")
			last = stamp
		}
		time.Sleep(500 * time.Millisecond)
	}
}
