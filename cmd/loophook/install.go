package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/host"
	"github.com/urfave/cli/v2"
)

func scopeFlag() cli.Flag {
	return &cli.StringFlag{Name: "scope", Value: "project", Usage: "the settings file: `project`, local or user"}
}

// hostFlag's usage names the hosts from the table.
func hostFlag() cli.Flag {
	def := defaultHost().Name
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

// defaultHost is the host install picks when the project shows none.
func defaultHost() host.Host {
	for _, h := range host.Installable() {
		if h.Install.Default {
			return h
		}
	}
	return host.Installable()[0]
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
			"--host defaults to the host whose configuration the project has, else " + defaultHost().Name + ".\n" +
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
				done:    "installed into", would: "would install into", nothing: "already installed in",
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
			"  - what install added beside them: Claude Code's env." + blockCapKey + " while it is still\n" +
			"    \"" + blockCap + "\", Codex's trust of the hooks.\n" +
			"Everything else stays as it was.\n\n" +
			"Examples:\n" +
			"   loophook uninstall\n" +
			"   loophook uninstall --host copilot --scope local --dry-run",
		Flags: []cli.Flag{hostFlag(), scopeFlag(), dryRunFlag},
		Action: func(c *cli.Context) error {
			return editSettings(c, settingsEdit{
				done: "uninstalled from", would: "would uninstall from", nothing: "not installed in",
			})
		},
	}
}

// settingsEdit is install or uninstall, and the words that say what
// happened.
type settingsEdit struct {
	install              bool
	done, would, nothing string
}

// scopeSettings is another scope's settings file, as read.
type scopeSettings struct {
	scope, path string
	doc         *object
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
	var notes []string
	h := hostNamed(c.String("host"))
	switch {
	case !c.IsSet("host"):
		var picked string
		h, picked = detectHost(wd)
		notes = append(notes, picked)
	case h == nil:
		return errUnknownHost(c.String("host"), hostNames())
	}
	scope := c.String("scope")
	path, root, err := hostPath(h, scope, wd, command)
	if err != nil {
		return err
	}
	if e.install && h.readOthers {
		if where, ok := pluginEnabled(claudeFiles(root)...); ok {
			return errPluginEnabled(shown(where))
		}
	}
	bin, err := loophookBinary()
	if err == nil {
		err = hostBinary(h, bin)
	}
	if err != nil {
		return err
	}
	target, data, err := readSettings(path, command)
	if err != nil {
		return err
	}
	doc, err := h.text.decode(data)
	if err != nil {
		return fail("fix it, or move it aside, and run loophook "+command+" again", "%s is %v; nothing changed", shown(path), err)
	}
	before, _ := h.text.decode(data)
	var others []scopeSettings
	if h.readOthers {
		others = otherScopes(h, scope, path)
	}
	change := h.uninstall
	if e.install {
		change = h.install
	}
	changes, changeNotes, err := change(doc, bin, scope, others)
	if err != nil {
		return fail("fix it, or move it aside, and run loophook "+command+" again", "%s: %v; nothing changed", shown(path), err)
	}
	notes = append(notes, changeNotes...)
	out := data
	if len(changes) > 0 {
		if out, err = h.text.encode(data, doc); err != nil {
			return fail(hintByHand(path), "%s: %v; nothing changed", shown(path), err)
		}
	}
	trust, err := prepareTrust(h, e.install, scope, root, path, before, doc, bin)
	if err != nil {
		return err
	}
	var summary string
	switch {
	case c.Bool("dry-run"):
		if _, err := c.App.Writer.Write(out); err != nil {
			return err
		}
		summary = fmt.Sprintf("dry run: %s %s; nothing would change", e.nothing, shown(path))
		if len(changes) > 0 {
			summary = fmt.Sprintf("dry run: %s %s: %s; nothing written", e.would, shown(path), strings.Join(changes, ", "))
		}
	case len(changes) == 0:
		summary = fmt.Sprintf("%s %s; nothing changed", e.nothing, shown(path))
	default:
		if err := writeSettings(target, out); err != nil {
			return errWrite(shown(path), err)
		}
		summary = fmt.Sprintf("%s %s: %s", e.done, shown(path), strings.Join(changes, ", "))
	}
	fmt.Fprintf(c.App.ErrWriter, "loophook: %s\n", summary)
	if trust != nil {
		if c.Bool("dry-run") {
			fmt.Fprintf(c.App.ErrWriter, "loophook: dry run: would change %s: %s; nothing written\n", shown(trust.path), strings.Join(trust.changes, ", "))
		} else {
			if err := writeSettings(trust.target, trust.out); err != nil {
				return errTrustWrite(shown(trust.path), shown(path), err)
			}
			fmt.Fprintf(c.App.ErrWriter, "loophook: %s\n", msgTrustWritten(shown(trust.path), trust.changes))
		}
	}
	if h.readOthers {
		notes = append(notes, alsoInstalled(others, bin)...)
	}
	if e.install && h.tell != nil {
		notes = append(notes, h.tell(scope, root, bin)...)
	}
	for _, n := range notes {
		if n != "" {
			fmt.Fprintf(c.App.ErrWriter, "loophook: note: %s\n", n)
		}
	}
	return nil
}

// preparedTrust is the trust file's new bytes, ready to write.
type preparedTrust struct {
	path, target string
	out          []byte
	changes      []string
}

// prepareTrust reads and changes a host's trust file, before anything is
// written, so that a trust file that cannot be edited leaves both as they were.
func prepareTrust(h *installHost, install bool, scope, root, path string, before, after *object, bin string) (*preparedTrust, error) {
	if h.trust == nil {
		return nil, nil
	}
	fe, err := h.trust(install, scope, root, path, before, after, bin)
	if err != nil || fe == nil {
		return nil, err
	}
	target, data, err := readSettings(fe.path, "install")
	if err != nil {
		return nil, err
	}
	out, changes, err := fe.change(data)
	if err != nil {
		return nil, fail(hintTrustByHand, "%s: %v; nothing changed", shown(fe.path), err)
	}
	if len(changes) == 0 {
		return nil, nil
	}
	return &preparedTrust{fe.path, target, out, changes}, nil
}

// maxSettings is the largest settings file install reads.
const maxSettings = 16 << 20

// readSettings reads the settings file at path, following a symbolic link
// to the file it names, target, which is the one to replace. A missing file
// reads as empty; a link to nothing, and anything but a regular file, are
// refused without being opened.
func readSettings(path, command string) (target string, data []byte, err error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, nil, nil
	case err != nil:
		return "", nil, errRead(shown(path), err)
	}
	target = path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); errors.Is(err, fs.ErrNotExist) {
			link, _ := os.Readlink(path)
			return "", nil, errDanglingSettings(shown(path), link, command)
		} else if err != nil {
			return "", nil, errRead(shown(path), err)
		}
	}
	data, err = readRegular(target, maxSettings)
	var odd *hook.NotRegular
	switch {
	case errors.As(err, &odd):
		return "", nil, errNotRegularSettings(shown(path), odd.Mode, command)
	case err != nil:
		return "", nil, errRead(shown(path), err)
	}
	return target, data, nil
}

// writeSettings replaces the settings file at target atomically, creating
// the directories it needs, and removing them again should the write fail.
// Links on the way to target are followed: a person's configuration may
// live anywhere.
func writeSettings(target string, data []byte) error {
	dirPath, name := filepath.Dir(target), filepath.Base(target)
	undo, err := makeDirs(dirPath)
	if err != nil {
		return err
	}
	dir, err := os.OpenRoot(dirPath)
	if err == nil {
		err = writeIn(dir, name, data, keptPerm(dir, name, 0o644))
		dir.Close()
	}
	if err != nil {
		undo()
	}
	return err
}

// otherScopes reads the host's settings files of the scopes other than
// scope, passing over those that cannot be read.
func otherScopes(h *installHost, scope, path string) []scopeSettings {
	var others []scopeSettings
	wd, _ := os.Getwd()
	for _, other := range h.scopes {
		p, _, err := hostPath(h, other, wd, "")
		if other == scope || err != nil || p == path {
			continue
		}
		_, data, err := readSettings(p, "")
		if err != nil {
			continue
		}
		if doc, err := h.text.decode(data); err == nil {
			others = append(others, scopeSettings{other, p, doc})
		}
	}
	return others
}

// decodeSettings reads a settings file; an empty or missing one is {}.
func decodeSettings(data []byte) (*object, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return &object{}, nil
	}
	return decodeObject(data)
}

// sameEncoding gives out the byte order mark and CRLF line ends of the file
// it replaces, if it had them.
func sameEncoding(orig, out []byte) []byte {
	if bytes.Contains(orig, []byte("\r\n")) {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	if bytes.HasPrefix(orig, []byte("\xef\xbb\xbf")) {
		out = append([]byte("\xef\xbb\xbf"), out...)
	}
	return out
}

// hostPath is the file of a host's scope, and the project's directory for
// the host. The project scopes are refused where the project's file would
// be the user's own: in the home directory outside any work tree, or in a
// work tree whose root is the home directory. command names what was
// refused.
func hostPath(h *installHost, scope, wd, command string) (path, root string, err error) {
	if !slices.Contains(h.scopes, scope) {
		return "", "", errScope(h.name, h.scopes, scope)
	}
	root = h.projectDir(wd)
	if path, err = h.file(scope, root); err != nil {
		return "", "", fail("", "find the home directory: %v", err)
	}
	if scope != "user" {
		if user, err := h.file("user", root); err == nil && sameDir(filepath.Dir(path), filepath.Dir(user)) {
			where := shown(root)
			if home, err := os.UserHomeDir(); err == nil && sameDir(root, home) {
				where = "the home directory"
			}
			return "", "", errNotAProject(where, filepath.Base(filepath.Dir(path)), command)
		}
	}
	return path, root, nil
}

// claudeFiles are Claude Code's settings files for the project at root,
// lowest precedence first: user, project, local.
func claudeFiles(root string) []string {
	var files []string
	for _, scope := range []string{"user", "project", "local"} {
		if f, err := claudeFile(scope, root); err == nil {
			files = append(files, f)
		}
	}
	return files
}

// userConfigDir is where Claude Code keeps its user configuration:
// CLAUDE_CONFIG_DIR when that is set, else ~/.claude.
func userConfigDir() (string, error) {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".claude"), nil
}

// sameDir reports whether a and b name one directory, whether or not it
// exists yet.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// loophookBinary is the path the hooks run: LOOPHOOK_BIN when set, else this
// binary's, with symbolic links resolved.
func loophookBinary() (string, error) {
	if bin := os.Getenv("LOOPHOOK_BIN"); bin != "" {
		if !filepath.IsAbs(bin) {
			return "", fail("", "LOOPHOOK_BIN must be an absolute path, not %q", bin)
		}
		return bin, nil
	}
	bin, err := os.Executable()
	if err == nil {
		bin, err = filepath.EvalSymlinks(bin)
	}
	if err != nil {
		return "", fail("set LOOPHOOK_BIN to loophook's absolute path", "find loophook's own path: %v", err)
	}
	return bin, nil
}

// alsoInstalled warns of loophook's hooks in the other scopes' files: Claude
// Code runs the hooks of every scope, and a Stop hook run twice per stop
// would count the runaway guard twice.
func alsoInstalled(others []scopeSettings, bin string) []string {
	var notes []string
	for _, o := range others {
		if hasLoophookHooks(o.doc, bin) {
			notes = append(notes, fmt.Sprintf("%s (%s scope) has loophook's hooks too, and Claude Code runs every scope's hooks: remove one with loophook uninstall --scope %s", shown(o.path), o.scope, o.scope))
		}
	}
	return notes
}
