package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/schema"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check a state file against the schema, naming every problem",
		ArgsUsage: "[FILE]",
		Description: "Prints one line per problem, `pointer: message`, sorted by JSON pointer.\n" +
			"Without FILE, checks the .loop/state.json the hook would find from here.\n" +
			"Exit 0: valid. 1: invalid. 2: the file cannot be read.\n\n" +
			"Examples:\n" +
			"   loophook validate\n" +
			"   loophook validate path/to/state.json",
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return fail("loophook validate [FILE]", "validate takes at most one file")
			}
			path := c.Args().First()
			if path == "" {
				found, err := locateState("", "")
				if err != nil {
					return err
				}
				path = shown(found)
			}
			data, err := hook.ReadStateFile(path)
			if err != nil {
				return fail("", "%s: %v", path, err)
			}
			problems := schema.Hope.Read(data).Problems
			if len(problems) == 0 {
				fmt.Fprintf(c.App.Writer, "%s: valid\n", path)
				return nil
			}
			for _, p := range problems {
				fmt.Fprintln(c.App.Writer, p)
			}
			return invalidState(path, len(problems))
		},
	}
}

func schemaCommand() *cli.Command {
	return &cli.Command{
		Name:        "schema",
		Usage:       "print the JSON Schema (draft 2020-12) of .loop/state.json",
		Description: "Example:\n   loophook schema > state.schema.json",
		Action: func(c *cli.Context) error {
			_, err := c.App.Writer.Write(schema.Hope.Schema)
			return err
		},
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
