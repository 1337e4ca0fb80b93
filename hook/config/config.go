// Package config is a person's .loophook.json (SPEC section 6): the checks
// loophook runs itself and the budgets it measures, read as JSON with
// comments and trailing commas, obeyed only in a version a person approved
// with loophook accept. The approved text is kept in the user's
// configuration directory, never in the project.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/tailscale/hujson"

	"github.com/loophook/loophook/internal/file"
	"github.com/loophook/loophook/schema"
)

// File is the name of the file at the top of the work tree.
const File = ".loophook.json"

// DefaultTimeout is a check's timeout when it sets none.
const DefaultTimeout = 5 * time.Minute

// MaxFile caps the file read: a person's config is a few hundred bytes.
const MaxFile = 1 << 20

// Check is one command loophook runs before a loop may end.
type Check struct {
	Name string
	Run  string
	// Criterion is the criterion (a hope criterion, an on-loop phase, a
	// controller stage, an orchestrator system) the check guards; "" none.
	Criterion string
	Timeout   time.Duration
	// Exclusive runs the check alone: no other check runs beside it.
	Exclusive bool
}

// Budget is what loophook measures for a loop; a zero field is no limit.
type Budget struct {
	Tokens   int64
	Turns    int
	Duration time.Duration
}

// Config is a parsed .loophook.json.
type Config struct {
	Checks []Check
	Budget Budget
}

// Invalid is a file that is JSON with comments but fails the schema.
type Invalid struct{ Problems []string }

// Error names every problem with its pointer, never a count.
func (e *Invalid) Error() string { return strings.Join(e.Problems, "; ") }

// wire is the file's shape once it passed the schema.
type wire struct {
	Checks []struct {
		Name, Run, Criterion, Timeout string
		Exclusive                     bool
	} `json:"checks"`
	Budget struct {
		Tokens   int64  `json:"tokens"`
		Turns    int    `json:"turns"`
		Duration string `json:"duration"`
	} `json:"budget"`
}

// Parse reads a .loophook.json: hujson makes it standard JSON, the
// embedded schema checks it, and a schema failure is an *Invalid with
// every problem and its pointer.
func Parse(data []byte) (*Config, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	std, err := hujson.Standardize(bytes.Clone(data))
	if err != nil {
		return nil, fmt.Errorf(problemSyntax, err)
	}
	var doc any
	if err := json.Unmarshal(std, &doc); err != nil {
		return nil, errors.New(schema.JSONError(std, err))
	}
	if problems := schema.ValidateConfig(doc); len(problems) > 0 {
		return nil, &Invalid{Problems: problems}
	}
	var w wire
	if err := json.Unmarshal(std, &w); err != nil {
		return nil, errors.New(schema.JSONError(std, err))
	}
	if problems := duplicateNames(w); len(problems) > 0 {
		return nil, &Invalid{Problems: problems}
	}
	c := &Config{Budget: Budget{Tokens: w.Budget.Tokens, Turns: w.Budget.Turns}}
	if w.Budget.Duration != "" {
		c.Budget.Duration, _ = time.ParseDuration(w.Budget.Duration) // the schema's pattern holds
	}
	for _, wc := range w.Checks {
		ch := Check{Name: wc.Name, Run: wc.Run, Criterion: wc.Criterion, Timeout: DefaultTimeout, Exclusive: wc.Exclusive}
		if wc.Timeout != "" {
			ch.Timeout, _ = time.ParseDuration(wc.Timeout)
		}
		c.Checks = append(c.Checks, ch)
	}
	return c, nil
}

// Validate checks the .loophook.json at path, as a person's validate
// asks: every problem with its pointer (a syntax error is one), none when
// it is valid; err when it cannot be read.
func Validate(path string) (problems []string, err error) {
	data, ok, err := readFile(path)
	switch {
	case !ok:
		return nil, fmt.Errorf(problemRead, path, fs.ErrNotExist)
	case err != nil:
		return nil, fmt.Errorf(problemRead, path, err)
	}
	if _, err := Parse(data); err != nil {
		return problemsOf(err), nil
	}
	return nil, nil
}

// duplicateNames are the checks named as one before them: a check's name
// is how a person, status and why tell it from the others.
func duplicateNames(w wire) []string {
	var problems []string
	first := map[string]int{}
	for i, c := range w.Checks {
		if j, ok := first[c.Name]; ok {
			problems = append(problems, fmt.Sprintf(problemDuplicateName, i, c.Name, j))
			continue
		}
		first[c.Name] = i
	}
	return problems
}

// readFile reads the file at path within MaxFile; ok is false when there
// is none. It refuses what is not a regular file, without blocking on one.
func readFile(path string) (data []byte, ok bool, err error) {
	data, err = file.Read(path, MaxFile)
	switch {
	case file.Absent(err):
		return nil, false, nil
	case errors.Is(err, file.ErrNotRegular):
		return nil, true, errors.New(problemNotRegular)
	case errors.Is(err, file.ErrTooLarge):
		return nil, true, fmt.Errorf(problemTooLarge, MaxFile>>10)
	}
	return data, true, err
}
