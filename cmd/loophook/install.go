package main

import (
	"os"

	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/hook/install"
	"github.com/urfave/cli/v2"
)

func scopeFlag() cli.Flag {
	return &cli.StringFlag{Name: "scope", Value: "project", Usage: "the settings file: `project`, local or user"}
}

// hostFlag's usage names the hosts from the table.
func hostFlag() cli.Flag {
	def := install.Default().Name
	names := host.InstallableNames()
	for i, n := range names {
		if n == def {
			names[i] = "`" + n + "`" // the placeholder help shows
		}
	}
	return &cli.StringFlag{Name: "host", Usage: "the agent host: " + host.OrList(names) + " (default: " + def + ")"}
}

var dryRunFlag = &cli.BoolFlag{Name: "dry-run", Usage: "print what the settings file would become, and write nothing"}

func installCommand() *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "register loophook's end-of-turn and SessionStart hooks with an agent host: " + host.Titles(),
		Description: "Adds loophook's hooks to the host's own file, each running loophook with the host's\n" +
			"--protocol, and what the host needs beside them:\n" +
			host.Help() +
			"--host defaults to " + install.Default().Name + "; other hosts' folders found in the project are named.\n" +
			"Keeps every other setting and hook, and the order of keys. A loophook hook written another\n" +
			"way (another path, an environment prefix, flags of its own) is pointed at this one, the rest\n" +
			"kept as written, not added twice; running it again changes nothing. Pointing a hook it finds at\n" +
			"another program takes it off as uninstall does: it is a person's act, refused (exit 2) when an\n" +
			"agent host's marker (CLAUDECODE, GEMINI_CLI...) is in its environment.\n" +
			"Files are written atomically; a file that does not read, or is not a regular file, is refused\n" +
			"and left as it is. A file that is a symbolic link is written where it points.\n\n" +
			"Scopes: the project is the enclosing git work tree's root, else the current directory, though\n" +
			"never the home directory. Project files are meant to be committed, so their hooks run\n" +
			"loophook from PATH, never this machine's path, behind a guard: on a teammate's machine without\n" +
			"loophook a stop says nothing and a session start tells them once. The local and user scopes\n" +
			"run this binary by its absolute path. LOOPHOOK_BIN, when set, is the path written instead, in\n" +
			"every scope (for packagers, whose binary's real path changes on upgrade, and for tests).\n\n" +
			"Examples:\n" +
			"   loophook install\n" +
			"   loophook install --host codex\n" +
			"   loophook install --host gemini --scope user --dry-run",
		Flags: []cli.Flag{hostFlag(), scopeFlag(), dryRunFlag},
		Action: func(c *cli.Context) error {
			return editSettings(c, false)
		},
	}
}

func uninstallCommand() *cli.Command {
	return &cli.Command{
		Name:  "uninstall",
		Usage: "remove what loophook install added to an agent host's configuration",
		Description: "Removes from the host's file (see loophook install --help for the hosts and scopes)\n" +
			"loophook's hooks, and what install recorded adding beside them (the record is kept in the\n" +
			"user's configuration directory): the lists and objects it added, Claude Code's and Qwen\n" +
			"Code's block cap while still loophook's value, Codex's trust, the file and the directories\n" +
			"it created, once empty. What was there before install stays, even a value equal to\n" +
			"loophook's. An install by a loophook that kept no record is undone by what is recognisably\n" +
			"loophook's: its hooks, the groups and lists they leave empty, a cap at loophook's value.\n" +
			"For Pi, uninstall removes loophook's extension file, and nothing else of .pi/extensions.\n" +
			"uninstall is a person's act: it refuses (exit 2) when an agent host's marker (CLAUDECODE,\n" +
			"GEMINI_CLI...) is in its environment; --dry-run, which changes nothing, does not.\n\n" +
			"Examples:\n" +
			"   loophook uninstall\n" +
			"   loophook uninstall --host copilot --scope local --dry-run",
		Flags: []cli.Flag{hostFlag(), scopeFlag(), dryRunFlag},
		Action: func(c *cli.Context) error {
			if !c.Bool("dry-run") {
				if err := notAgent("uninstall", os.Getenv); err != nil {
					return err
				}
			}
			return editSettings(c, true)
		},
	}
}

// editSettings is install, or uninstall: it writes the plan, or prints
// what the file would become, and says what it did.
func editSettings(c *cli.Context, uninstall bool) error {
	if c.NArg() > 0 {
		return fail("choose the file with --scope project|local|user", msgNoArguments, c.Command.Name)
	}
	plan, err := install.For(install.Asked{Host: c.String("host"), Named: c.IsSet("host"), Scope: c.String("scope"), Uninstall: uninstall})
	if err != nil {
		return err
	}
	dryRun := c.Bool("dry-run")
	if !dryRun && plan.Repoints() {
		if err := notAgent(msgInstallRepoint, os.Getenv); err != nil {
			return err
		}
	}
	if dryRun {
		_, err = c.App.Writer.Write(plan.File.After)
	} else {
		err = plan.Write()
	}
	if err != nil {
		return err
	}
	for _, line := range plan.Said(dryRun) {
		say(c.App.ErrWriter, "", "%s", line)
	}
	for _, n := range plan.Told(dryRun) {
		say(c.App.ErrWriter, tagNote, "%s", n)
	}
	return nil
}
