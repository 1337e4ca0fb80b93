package main

import (
	"strings"

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
	return &cli.StringFlag{Name: "host", Usage: "the agent host: " + host.OrList(names) + " (default: the one the project is set up for, else " + def + ")"}
}

var dryRunFlag = &cli.BoolFlag{Name: "dry-run", Usage: "print what the settings file would become, and write nothing"}

func installCommand() *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "register loophook's end-of-turn and SessionStart hooks with an agent host: " + host.Titles(),
		Description: "Adds loophook's hooks to the host's own file, each running this loophook by its absolute\n" +
			"path with the host's --protocol, and what the host needs beside them:\n" +
			host.Help() +
			"--host defaults to the host whose configuration the project has, else " + install.Default().Name + ".\n" +
			"Keeps every other setting and hook, and the order of keys. A loophook hook written another\n" +
			"way (another path, an environment prefix, flags of its own) is pointed at this one, the rest\n" +
			"kept as written, not added twice; running it again changes nothing.\n" +
			"Files are written atomically; a file that does not read, or is not a regular file, is refused\n" +
			"and left as it is. A file that is a symbolic link is written where it points.\n\n" +
			"Scopes: the project is the enclosing git work tree's root, else the current directory, though\n" +
			"never the home directory. Project files are usually committed, and the hooks name this\n" +
			"machine's path to loophook: use --scope local (Claude Code, Copilot) to keep them to yourself.\n" +
			"LOOPHOOK_BIN, when set, is the path written instead of this binary's (for packagers, whose\n" +
			"binary's real path changes on upgrade, and for tests).\n\n" +
			"Examples:\n" +
			"   loophook install\n" +
			"   loophook install --host codex\n" +
			"   loophook install --host gemini --scope user --dry-run",
		Flags: []cli.Flag{hostFlag(), scopeFlag(), dryRunFlag},
		Action: func(c *cli.Context) error {
			return editSettings(c, settingsEdit{
				install: true,
				done:    "installed into", nothing: "already installed in",
			})
		},
	}
}

func uninstallCommand() *cli.Command {
	return &cli.Command{
		Name:  "uninstall",
		Usage: "remove what loophook install added to an agent host's configuration",
		Description: "Removes from the host's file (see loophook install --help for the hosts and scopes)\n" +
			"  - loophook's hooks, with the groups and lists they leave empty, and\n" +
			"  - what install added beside them: Claude Code's env block cap while it is still\n" +
			"    loophook's, Codex's trust of the hooks and of the project.\n" +
			"Everything else stays as it was, and a file that install created goes.\n\n" +
			"Examples:\n" +
			"   loophook uninstall\n" +
			"   loophook uninstall --host copilot --scope local --dry-run",
		Flags: []cli.Flag{hostFlag(), scopeFlag(), dryRunFlag},
		Action: func(c *cli.Context) error {
			return editSettings(c, settingsEdit{
				done: "uninstalled from", nothing: "not installed in",
			})
		},
	}
}

// settingsEdit is install or uninstall, and the words that say what
// happened.
type settingsEdit struct {
	install       bool
	done, nothing string
}

func editSettings(c *cli.Context, e settingsEdit) error {
	command := c.Command.Name
	if c.NArg() > 0 {
		return fail("choose the file with --scope project|local|user", msgNoArguments, command)
	}
	plan, err := install.For(install.Asked{Host: c.String("host"), Named: c.IsSet("host"), Scope: c.String("scope"), Uninstall: !e.install})
	if err != nil {
		return err
	}
	w, f, dryRun := c.App.ErrWriter, plan.File, c.Bool("dry-run")
	path := shown(f.Path)
	if dryRun {
		_, err = c.App.Writer.Write(f.After)
	} else {
		err = plan.Write()
	}
	if err != nil {
		return err
	}
	switch {
	case len(f.Changes) == 0 && dryRun:
		say(w, "", msgDryRunSame, e.nothing, path)
	case len(f.Changes) == 0:
		say(w, "", msgEditSame, e.nothing, path)
	case dryRun:
		say(w, "", msgDryRun, command, path, strings.Join(install.Planned(f.Changes), ", "))
	default:
		say(w, "", msgEdited, e.done, path, strings.Join(f.Changes, ", "))
	}
	if t := plan.Trust; t != nil && dryRun {
		say(w, "", msgDryRun, command, shown(t.Path), strings.Join(install.Planned(t.Changes), ", "))
	} else if t != nil {
		say(w, "", msgTrustWritten, strings.Fields(plan.Host.Title)[0], shown(t.Path), strings.Join(t.Changes, ", "))
	}
	for _, n := range plan.Told(!dryRun) {
		say(w, tagNote, "%s", n)
	}
	return nil
}
