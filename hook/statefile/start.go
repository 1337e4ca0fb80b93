package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/internal/file"
	"github.com/loophook/loophook/internal/jsontext"
	"github.com/loophook/loophook/schema"
)

// A Loop is what a person starts: the request, the criteria, the plan's
// steps and the iteration limit.
type Loop struct {
	Spec          string
	Criteria      []string
	Steps         []string
	MaxIterations int
}

// Started is what Start did.
type Started struct {
	Path string // the state written
	Loop Loop   // the loop started
	// Contract, when set, is why the loop's contract could not be kept.
	Contract error
	// WorkTreeTop, when set, is the top of the git work tree above the
	// loop's directory, from which the hook does not find the loop.
	WorkTreeTop string
}

// Start writes dir/.loop/state.json (dir "" is the current directory) for the loop (SPEC: a hope state, its
// criteria all unmet), and .loop/.gitignore unless there is one, and starts
// the loop's contract with its criteria. It replaces a state only when
// force is set, and never writes through a symbolic link.
func Start(dir string, l Loop, force bool) (Started, error) {
	if err := l.check(); err != nil {
		return Started{}, err
	}
	given := dir
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Started{}, refuse("", "--dir: %v", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return Started{}, refuse("", "--dir %s is not a directory", given)
	}
	path := filepath.Join(dir, schema.HopeFile)
	data := l.state()
	if err := startLoop(path, data, force); err != nil {
		return Started{}, err
	}
	s := Started{Path: path, Loop: l}
	// A new loop, a new contract: its criteria are what the person asked for.
	if loop := schema.Hope.Read(data).Loop; loop != nil {
		store := memory.For(path)
		s.Contract = errors.Join(store.Begin(loop, time.Now()), store.Uncancel())
	}
	if top, _ := state.WorkTreeTop(dir); top != dir {
		s.WorkTreeTop = top
	}
	return s, nil
}

// check refuses a loop that cannot be started.
func (l Loop) check() error {
	if strings.TrimSpace(l.Spec) == "" {
		return refuse(hintInitExample, "--spec is required: the request the loop works on")
	}
	if len(l.Criteria) == 0 {
		return refuse(hintInitExample, "at least one --criterion is required: the loop ends when every criterion is met")
	}
	seen := map[string]bool{}
	for _, c := range l.Criteria {
		switch {
		case strings.TrimSpace(c) == "":
			return refuse("", "--criterion must not be empty")
		case seen[c]:
			return refuse("", "--criterion %q is given twice", c)
		}
		seen[c] = true
	}
	for _, s := range l.Steps {
		if strings.TrimSpace(s) == "" {
			return refuse("", "--step must not be empty")
		}
	}
	if l.MaxIterations < 1 {
		return refuse("", "--max-iterations must be at least 1, not %d", l.MaxIterations)
	}
	return nil
}

// state is the loop's first state, its keys in the order a person reads
// them, indented by two spaces.
func (l Loop) state() []byte {
	list := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	doc := struct {
		Spec           string         `json:"spec"`
		Criteria       []string       `json:"criteria"`
		CriteriaStatus criteriaStatus `json:"criteriaStatus"`
		ExitSignal     bool           `json:"exit_signal"`
		Status         string         `json:"status"`
		Iteration      int            `json:"iteration"`
		MaxIterations  int            `json:"maxIterations"`
		Steps          []string       `json:"steps"`
		CompletedSteps []string       `json:"completedSteps"`
		RemainingSteps []string       `json:"remainingSteps"`
		CircuitBreaker struct {
			StuckCount int `json:"stuckCount"`
		} `json:"circuitBreaker"`
	}{
		Spec: l.Spec, Criteria: l.Criteria, CriteriaStatus: l.Criteria, Status: "in_progress",
		MaxIterations: l.MaxIterations, Steps: list(l.Steps), CompletedSteps: []string{}, RemainingSteps: list(l.Steps),
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		panic(err) // strings, numbers and booleans only
	}
	return b.Bytes()
}

// criteriaStatus is every criterion unmet, in the criteria's order.
type criteriaStatus []string

func (c criteriaStatus) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, name := range c {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, name)
		b = append(b, ":false"...)
	}
	return append(b, '}'), nil
}

// startLoop writes a new loop's state at path, .loop/state.json, all or
// nothing: when the write fails, the directories it created go.
func startLoop(path string, state []byte, force bool) error {
	loopPath, name := filepath.Dir(path), filepath.Base(path)
	if err := refuseLink(loopPath, pointsToDir, initLinkHint); err != nil {
		return err
	}
	if err := refuseLink(path, pointsToFile, initLinkHint); err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil && !force {
		return errStateExists(shown(path))
	}
	undo, err := file.MakeDirs(loopPath)
	if err != nil {
		return errCreate(shown(loopPath), err)
	}
	loop, err := openDirNoLink(loopPath, initLinkHint)
	if err != nil {
		undo()
		return errOpen(shown(loopPath), err)
	}
	defer loop.Close()
	abandon := func(err error) error {
		loop.Close() // before undo, which removes the directory it holds
		undo()
		return err
	}
	if fi, err := loop.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return abandon(errLink(shown(path), initLinkHint(shown(path), pointsToFile)))
	}
	if err := writeIn(loop, name, state, file.KeptPerm(loop, name, 0o644)); err != nil {
		return abandon(errWrite(shown(path), err))
	}
	return nil
}
