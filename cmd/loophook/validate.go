package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/statefile"
	"github.com/loophook/loophook/hook/table"
	"github.com/loophook/loophook/schema"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check a state file against its dialect's schema, naming every problem",
		ArgsUsage: "[FILE]",
		Description: "Prints one line per problem, `pointer: message`, sorted by JSON pointer, and names the\n" +
			"dialect it checked against: --dialect's, else the one the file's content tells. A file named\n" +
			config.File + " is checked against the config schema (loophook schema --config) instead.\n" +
			"Without FILE, checks the state the hook would find from here.\n" +
			"Exit 0: valid. 1: invalid. 2: the file cannot be read.\n\n" +
			"Examples:\n" +
			"   loophook validate\n" +
			"   loophook validate path/to/state.json\n" +
			"   loophook validate --dialect orchestrator loop-state.json\n" +
			"   loophook validate .loophook.json",
		Flags: []cli.Flag{dialectFlag, dirFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return fail("loophook validate [FILE]", "validate takes at most one file")
			}
			if name := c.Args().First(); filepath.Base(name) == config.File {
				return validateConfig(c.App.Writer, name)
			}
			checked, err := statefile.Check(hook.Options{StatePath: c.Args().First(), Dir: c.String("dir"), Dialect: c.String("dialect")})
			if err != nil {
				return err
			}
			path, problems := checked.Path, checked.Problems
			if len(problems) == 0 {
				fmt.Fprintf(c.App.Writer, msgValid+"\n", path, checked.Dialect)
				return nil
			}
			for _, p := range problems {
				fmt.Fprintln(c.App.Writer, table.OneLine(p))
			}
			return invalidState(path, checked.Dialect, len(problems))
		},
	}
}

func schemaCommand() *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema (draft 2020-12) of a dialect's state file",
		Description: "Prints hope's schema (.loop/state.json), or with --dialect that dialect's: " + strings.Join(schema.Names(), ", ") + ".\n\n" +
			"Examples:\n" +
			"   loophook schema > state.schema.json\n" +
			"   loophook schema --dialect on-loop\n" +
			"   loophook schema --config",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dialect", Value: schema.Hope.Name, Usage: "print dialect `D`'s schema", EnvVars: dialectFlag.EnvVars},
			&cli.BoolFlag{Name: "config", Usage: "print the schema of a person's " + config.File + " instead"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("config") {
				_, err := c.App.Writer.Write(schema.ConfigSchema)
				return err
			}
			d, err := schema.Lookup(c.String("dialect"))
			if err != nil {
				return fail("", msgDialect, err)
			}
			_, err = c.App.Writer.Write(d.Schema)
			return err
		},
	}
}

// validateConfig checks a person's .loophook.json against the config
// schema: a .loophook.json is never a state.
func validateConfig(w io.Writer, name string) error {
	problems, err := config.Validate(name)
	if err != nil {
		return fail("", "%v", err)
	}
	if len(problems) == 0 {
		fmt.Fprintf(w, msgValidConfig+"\n", name)
		return nil
	}
	for _, p := range problems {
		fmt.Fprintln(w, table.OneLine(p))
	}
	word := "problems"
	if len(problems) == 1 {
		word = "problem"
	}
	return &failure{msg: fmt.Sprintf(msgInvalidConfig, name, len(problems), word), code: exitFinding}
}
