package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/schema"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "start a loop: write a new .loop/state.json",
		Description: "Writes DIR/.loop/state.json (DIR is --dir, else the current directory, even inside a\n" +
			"git work tree) for the agent to work through: the spec, the criteria all unmet, the steps\n" +
			"all left, iteration 0, status in_progress. Also writes .loop/.gitignore, which keeps the\n" +
			"hook's memory out of commits, and starts the loop's contract: the criteria an agent cannot\n" +
			"drop without a person's loophook accept. The hook finds the loop from sessions working\n" +
			"in DIR or below.\n" +
			"Give --criterion and --step once per item; commas inside an item are kept.\n" +
			"Refuses to replace an existing state unless --force, and to write through a symbolic link.\n\n" +
			"Examples:\n" +
			"   loophook init --spec \"add a --json flag\" --criterion \"tests pass\" --criterion \"docs updated\"\n" +
			"   loophook init --spec \"fix the flaky test\" --criterion \"go test -count=20 passes\" \\\n" +
			"       --step \"reproduce\" --step \"fix\" --step \"verify\" --max-iterations 5",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "spec", Usage: "the loop works on the request in `TEXT` (required)"},
			&cli.GenericFlag{Name: "criterion", Value: &repeated{}, Usage: "add the success criterion `TEXT` (at least one; repeat the flag for each)"},
			&cli.GenericFlag{Name: "step", Value: &repeated{}, Usage: "add `TEXT` as the plan's next step (repeat the flag for each, in order)"},
			&cli.IntFlag{Name: "max-iterations", Value: criteria.DefaultMaxIterations, Usage: "end the loop after `N` iterations"},
			&cli.StringFlag{Name: "dir", Usage: "write `DIR`/.loop/state.json instead of ./.loop/state.json"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing state"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fail(`loophook init --spec "add a --json flag" --criterion "tests pass"`, "init takes flags only, not %q", c.Args().First())
			}
			doc, summary, err := newState(c.String("spec"), *c.Generic("criterion").(*repeated), *c.Generic("step").(*repeated), c.Int("max-iterations"))
			if err != nil {
				return err
			}
			dir := c.String("dir")
			if dir == "" {
				dir = "."
			}
			dir, err = filepath.Abs(dir)
			if err != nil {
				return fail("", "--dir: %v", err)
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return fail("", "--dir %s is not a directory", c.String("dir"))
			}
			path := filepath.Join(dir, schema.HopeFile)
			data := encode(doc)
			if err := startLoop(path, data, c.Bool("force")); err != nil {
				return err
			}
			fmt.Fprintf(c.App.ErrWriter, "loophook: wrote %s: %s\n", shown(path), summary)
			// A new loop, a new contract: its criteria are what the person asked for.
			if l := schema.Hope.Read(data).Loop; l != nil {
				if _, err := hook.StoreFor(hook.Found{Path: path, Dialect: schema.Hope}).Accept(l); err != nil {
					fmt.Fprintf(c.App.ErrWriter, "loophook: note: keep the loop's contract: %v\n", err)
				}
			}
			if root := projectRoot(dir); root != dir {
				fmt.Fprintf(c.App.ErrWriter, "loophook: note: the hook finds this loop from sessions working in %s or below, not from the git work tree's root %s\n", shown(dir), root)
			}
			return nil
		},
	}
}

// newState is a loop's first state, with its keys in the order a person
// reads them, and a line that sums it up.
func newState(spec string, crits, steps []string, maxIterations int) (*object, string, error) {
	const example = `loophook init --spec "add a --json flag" --criterion "tests pass"`
	if strings.TrimSpace(spec) == "" {
		return nil, "", fail(example, "--spec is required: the request the loop works on")
	}
	if len(crits) == 0 {
		return nil, "", fail(example, "at least one --criterion is required: the loop ends when every criterion is met")
	}
	seen := map[string]bool{}
	for _, c := range crits {
		switch {
		case strings.TrimSpace(c) == "":
			return nil, "", fail("", "--criterion must not be empty")
		case seen[c]:
			return nil, "", fail("", "--criterion %q is given twice", c)
		}
		seen[c] = true
	}
	for _, s := range steps {
		if strings.TrimSpace(s) == "" {
			return nil, "", fail("", "--step must not be empty")
		}
	}
	if maxIterations < 1 {
		return nil, "", fail("", "--max-iterations must be at least 1, not %d", maxIterations)
	}
	status := &object{}
	for _, c := range crits {
		status.set(c, false)
	}
	breaker := &object{}
	breaker.set("stuckCount", json.Number("0"))
	doc := &object{}
	doc.set("spec", spec)
	doc.set("criteria", anyList(crits))
	doc.set("criteriaStatus", status)
	doc.set("exit_signal", false)
	doc.set("status", "in_progress")
	doc.set("iteration", json.Number("0"))
	doc.set("maxIterations", json.Number(strconv.Itoa(maxIterations)))
	doc.set("steps", anyList(steps))
	doc.set("completedSteps", []any{})
	doc.set("remainingSteps", anyList(steps))
	doc.set("circuitBreaker", breaker)
	summary := fmt.Sprintf("%s, %s, at most %s", count(len(crits), "criterion", "criteria"), count(len(steps), "step", "steps"), count(maxIterations, "iteration", "iterations"))
	return doc, summary, nil
}

// startLoop writes a new loop's state at path, .loop/state.json, and
// .loop/.gitignore unless there is one (it is the person's then), all or
// nothing: when a write fails, what it created goes. It never writes through
// a symbolic link, and replaces a state only when force is set.
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
	undo, err := makeDirs(loopPath)
	if err != nil {
		return errCreate(shown(loopPath), err)
	}
	loop, err := openDirNoLink(loopPath, initLinkHint)
	if err != nil {
		undo()
		return errOpen(shown(loopPath), err)
	}
	defer loop.Close()
	const ignore = ".gitignore"
	wroteIgnore := false
	abandon := func(err error) error {
		if wroteIgnore {
			loop.Remove(ignore)
		}
		loop.Close() // before undo, which removes the directory it holds
		undo()
		return err
	}
	if fi, err := loop.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return abandon(errLink(shown(path), initLinkHint(shown(path), pointsToFile)))
	}
	if _, err := loop.Lstat(ignore); errors.Is(err, fs.ErrNotExist) {
		if err := writeIn(loop, ignore, []byte(hook.MemoryDir+"/\n"), 0o644); err != nil {
			return abandon(errWrite(shown(filepath.Join(loopPath, ignore)), err))
		}
		wroteIgnore = true
	}
	if err := writeIn(loop, name, state, keptPerm(loop, name, 0o644)); err != nil {
		return abandon(errWrite(shown(path), err))
	}
	return nil
}

// repeated is a flag given once per value. Unlike cli.StringSliceFlag it
// never splits a value at commas, which criteria often hold.
type repeated []string

func (r *repeated) Set(s string) error {
	*r = append(*r, s)
	return nil
}

func (r *repeated) String() string { return "" }

// anyList is a list of strings as an object's value.
func anyList(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
