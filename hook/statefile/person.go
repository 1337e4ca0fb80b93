package statefile

import (
	"os"
	"strings"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/schema"
)

// Locate is the state file a person's command works on: --state, else the
// one the hook would find from --dir, else from the working directory. With
// no host in o, the search is the strict protocol's, as a hook registered
// without --protocol searches: from the project directory it names first.
func Locate(o hook.Options) (state.Found, error) {
	if o.Host.Name == "" {
		o.Host = host.Strict().Wire
	}
	// A path the person named that is not there is what is wrong, in the
	// hook's own words, not a loop to start there.
	if err := o.Configured(); err != nil {
		return state.Found{}, refuse("", "%v", err)
	}
	dir := o.Dir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return state.Found{}, refuse("", errFindState, err)
		}
	}
	if found := o.Find(dir); found.Path != "" {
		return found, nil
	}
	files := []string{}
	for _, d := range schema.Dialects {
		if o.Dialect == "" || o.Dialect == d.Name {
			files = append(files, d.File)
		}
	}
	return state.Found{}, refuse(hintStart, errNoState, dir, strings.Join(files, ", "))
}

// End ends the loop of the state found, of any loop system: a hope state
// as Cancel does, another system's by the hook's own record of the cancel
// (loophook never writes that system's file). A person ended the loop: so
// ends its contract (SPEC section 5).
func End(found state.Found, now time.Time) (Cancelled, error) {
	var done Cancelled
	var err error
	if found.Dialect.Name == schema.Hope.Name {
		done, err = Cancel(found.Path, now)
	} else if done.Record, err = memory.CancelLoop(found, now); err != nil {
		err = refuse(hintCancelDialect, errCancelDialect, shown(found.Path), err)
	}
	if err != nil {
		return Cancelled{}, err
	}
	done.Path, done.Dialect = found.Path, found.Dialect.Name
	done.Contract = memory.EndLoop(found)
	return done, nil
}

// Accepted is what Accept did.
type Accepted struct {
	Path string // the state
	// Loop is the loop accepted; nil when the state is not a valid one,
	// with its number of Problems.
	Loop     *criteria.Loop
	Problems int
	Change   memory.ContractChange
	// Uncancel, when set, is why a cancel's record could not be cleared.
	Uncancel error
}

// Accept makes the criteria that the state found lists now its loop's
// contract (SPEC section 5), and takes the loop up again after a cancel.
// The caller has made sure a person runs it.
func Accept(found state.Found, now time.Time) (Accepted, error) {
	l := state.Load(found)
	if l.Loop == nil {
		if _, err := state.ReadFile(found.Path); err != nil {
			return Accepted{}, refuse("", "%s: %v", shown(found.Path), err)
		}
		return Accepted{Path: found.Path, Problems: len(l.Problems)}, nil
	}
	store := memory.For(found.Path)
	change, err := store.Accept(l.Loop, now)
	if err != nil {
		return Accepted{}, refuse("", errKeepContract, shown(found.Path), err)
	}
	return Accepted{Path: found.Path, Loop: l.Loop, Change: change, Uncancel: store.Uncancel()}, nil
}

// Checked is a state file checked against its dialect's schema.
type Checked struct {
	Path     string // as the person named it, else as shown names it
	Dialect  string
	Problems []string // none: valid
}

// Check checks the state file of o (--state, else the one found) against
// its dialect's schema: --dialect's, else the one its content tells. A file
// that cannot be read is refused.
func Check(o hook.Options) (Checked, error) {
	if o.Dialect != "" {
		if _, err := schema.Lookup(o.Dialect); err != nil {
			return Checked{}, refuse("", "--dialect: %v", err)
		}
	}
	path := o.StatePath
	if path != "" {
		if _, err := state.ReadFile(path); err != nil {
			return Checked{}, refuse("", "%s: %v", path, err)
		}
	}
	found, err := Locate(o)
	if err != nil {
		return Checked{}, err
	}
	if path == "" {
		path = shown(found.Path)
	}
	data, err := state.ReadFile(found.Path)
	if err != nil {
		return Checked{}, refuse("", "%s: %v", path, err)
	}
	return Checked{Path: path, Dialect: found.Dialect.Name, Problems: found.Dialect.Read(data).Problems}, nil
}
