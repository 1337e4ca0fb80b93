package main

import (
	"fmt"
	"os"
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
	names := installableNames()
	for i, n := range names {
		if n == def {
			names[i] = "`" + n + "`" // the placeholder help shows
		}
	}
	return &cli.StringFlag{Name: "host", Usage: "the agent host: " + host.OrList(names) + " (default: the one the project is set up for, else " + def + ")"}
}

// installableNames are the names of the hosts install registers with.
func installableNames() []string {
	var names []string
	for _, h := range host.Installable() {
		names = append(names, h.Name)
	}
	return names
}

// hostsHelp is each host's help, under its name, for install --help.
func hostsHelp() string {
	var b strings.Builder
	for _, h := range host.Installable() {
		lines := strings.Split(h.Help, "\n")
		fmt.Fprintf(&b, "  %-8s %s\n", h.Name, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "%11s%s\n", "", l)
		}
	}
	return b.String()
}

// hostTitles is "Claude Code, Codex CLI …" from the table.
func hostTitles() string {
	var titles []string
	for _, h := range host.Installable() {
		titles = append(titles, h.Title)
	}
	return host.OrList(titles)
}

var dryRunFlag = &cli.BoolFlag{Name: "dry-run", Usage: "print what the settings file would become, and write nothing"}

func installCommand() *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "register loophook's end-of-turn and SessionStart hooks with an agent host: " + hostTitles(),
		Description: "Adds loophook's hooks to the host's own file, each running this loophook by its absolute\n" +
			"path with the host's --protocol, and what the host needs beside them:\n" +
			hostsHelp() +
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
		return fail("choose the file with --scope project|local|user", "%s takes no arguments", command)
	}
	wd, err := os.Getwd()
	if err != nil {
		return fail("", "find the project: %v", err)
	}
	var picked string
	h := install.Default()
	if c.IsSet("host") {
		if h, err = host.Lookup(c.String("host")); err != nil || h.Install == nil {
			return errUnknownHost(c.String("host"), installableNames())
		}
	} else {
		h, picked = install.Detect(wd)
	}
	bin, err := install.Binary()
	if err != nil {
		return err
	}
	plan, err := install.Prepare(install.Request{Host: h, Scope: c.String("scope"), Wd: wd, Bin: bin, Uninstall: !e.install})
	if err != nil {
		return err
	}
	w := c.App.ErrWriter
	f := plan.File
	path, changes := shown(f.Path), strings.Join(f.Changes, ", ")
	dryRun := c.Bool("dry-run")
	switch {
	case dryRun:
		if _, err := c.App.Writer.Write(f.After); err != nil {
			return err
		}
		if len(f.Changes) == 0 {
			say(w, "", msgDryRunSame, e.nothing, path)
		} else {
			say(w, "", msgDryRun, command, path, strings.Join(install.Planned(f.Changes), ", "))
		}
	default:
		if err := plan.Write(); err != nil {
			return err
		}
		if len(f.Changes) == 0 {
			say(w, "", msgEditSame, e.nothing, path)
		} else {
			say(w, "", msgEdited, e.done, path, changes)
		}
	}
	if t := plan.Trust; t != nil {
		if dryRun {
			say(w, "", msgDryRun, command, shown(t.Path), strings.Join(install.Planned(t.Changes), ", "))
		} else {
			say(w, "", "%s", msgTrustWritten(h.Title, shown(t.Path), t.Changes))
		}
	}
	notes := plan.Notes
	if t := plan.Trust; t != nil && t.Gone() && !dryRun {
		notes = append([]string{msgRemovedFile(shown(t.Path))}, notes...)
	}
	if f.Gone() && !dryRun {
		notes = append([]string{msgRemovedFile(path)}, notes...)
	}
	if picked != "" {
		notes = append([]string{picked}, notes...)
	}
	if e.install {
		if n := tokensUnrecorded(h, wd); n != "" {
			notes = append(notes, n)
		}
	}
	for _, n := range notes {
		say(w, tagNote, "%s", n)
	}
	return nil
}

// tokensUnrecorded warns, for a host that keeps no record of tokens, when
// the project's .loophook.json asks for a token budget: one that would
// never be reached must not look as if it held. "" otherwise.
func tokensUnrecorded(h host.Host, wd string) string {
	if path := install.TokensUnmeasured(h, wd); path != "" {
		return fmt.Sprintf(msgTokensUnrecorded, h.Title, shown(path))
	}
	return ""
}
