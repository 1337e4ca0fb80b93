package install

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/internal/file"
)

// Every sentence of this package a person reads: the changes an install
// makes, its notes, and its refusals with their hints.

// doing is each verb a change starts with, as done and as a dry run says
// it would be done. The changes are written as done: here, in hook/host's
// trust edits and in hook/hostfile's TOML edits.
var doing = map[string]string{
	"added": "add", "pointed": "point", "set": "set", "removed": "remove",
	"trusted": "trust", "withdrew": "withdraw", "wrote": "write", "rewrote": "rewrite",
}

// planned are the changes as a dry run names them: "add the Stop hook"
// for "added the Stop hook".
func planned(changes []string) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		verb, rest, _ := strings.Cut(c, " ")
		if v, ok := doing[verb]; ok {
			verb = v
		}
		out[i] = verb + " " + rest
	}
	return out
}

// A host's extension (Pi), written whole.
const (
	changeExtensionAdded   = "added loophook's extension"
	changeExtensionRemoved = "removed loophook's extension"
)

func changeExtensionRewritten(bin string) string {
	return extensionRewritten + bin
}

func errNotOurExtension(path, command string) error {
	return refuse("move it aside, or give it another name, and run loophook "+command+" again",
		"%s is not loophook's extension (its first line is not the one install writes); nothing changed", path)
}

func changeAdded(event string) string { return "added the " + event + " hook" }

func changePointed(event, bin string) string {
	return fmt.Sprintf(pointed+"%s hook at %s", event, bin)
}

// The beginnings of the changes that point loophook's hooks at another
// program (Plan.Repoints).
const (
	pointed            = "pointed the "
	extensionRewritten = "rewrote loophook's extension, to run "
)

func changeExecForm(event string) string {
	return "wrote the " + event + " hook in exec form (command and args), which runs without a shell"
}

func changeWindowsKey(key, of string) string {
	return "set " + key + ", the " + of + " that runs on Windows"
}

func changeProtocol(protocol, event string) string {
	return fmt.Sprintf("set --protocol %s on the %s hook", protocol, event)
}

func changeCopies(n int, event string) string {
	if n == 1 {
		return "removed 1 copy of the " + event + " hook"
	}
	return fmt.Sprintf("removed %d copies of the %s hook", n, event)
}

func changeRemoved(n int, event string) string {
	if n == 1 {
		return "removed the " + event + " hook"
	}
	return fmt.Sprintf("removed %d %s hooks", n, event)
}

func changeCapSet(cap *host.Setting) string {
	return fmt.Sprintf("set %s to %s", cap.Name(), cap.Shown())
}

func changeCapRemoved(cap *host.Setting) string { return "removed " + cap.Name() }

func noteCapSetElsewhere(cap *host.Setting, value, path, scope string) string {
	return fmt.Sprintf("kept %s at %s, set in %s (%s scope); loophook's %s is not added here", cap.Name(), value, path, scope, cap.Shown())
}

func noteCapKept(cap *host.Setting, value string) string {
	return fmt.Sprintf("kept %s at %s, set before (loophook's is %s)", cap.Name(), value, cap.Shown())
}

func noteCapLeft(cap *host.Setting, value string) string {
	return fmt.Sprintf("left %s at %s: not loophook's value", cap.Name(), value)
}

func noteCapTheirs(cap *host.Setting, value string) string {
	return fmt.Sprintf("left %s at %s: it was set before install", cap.Name(), value)
}

func noteAlsoExtension(path, scope, title, host string) string {
	return fmt.Sprintf("%s (%s scope) is loophook's extension too, and %s loads both: each stop is answered once, but the session's context is given twice; remove one with loophook uninstall --host %s --scope %s", path, scope, title, host, scope)
}

func noteAlsoInstalled(path, scope, title string) string {
	return fmt.Sprintf("%s (%s scope) has loophook's hooks too, and %s runs every scope's hooks: remove one with loophook uninstall --scope %s", path, scope, title, scope)
}

func noteAlsoRun(path, title, other, otherTitle string) string {
	return fmt.Sprintf("%s has loophook's hooks too, and %s runs those as well: each stop is evaluated twice (remove them with loophook uninstall --host %s if this project is not used with %s)", path, title, other, otherTitle)
}

func noteOtherHosts(def, command string, marks, hosts []string) string {
	var runs []string
	for _, h := range hosts {
		runs = append(runs, "--host "+h)
	}
	those := "that host"
	if len(hosts) > 1 {
		those = "those hosts"
	}
	return fmt.Sprintf("--host %s, the default: this project also has %s; for %s, run loophook %s %s", def, strings.Join(marks, ", "), those, command, strings.Join(runs, " or "))
}

// What install and uninstall did, or a dry run would do.
const (
	saidDryRunSame = "dry run: %s %s; nothing would change"
	saidDryRun     = "dry run: %s would change %s: %s; nothing written"
	saidSame       = "%s %s; nothing changed"
	saidEdited     = "%s %s: %s"
	saidTrust      = "wrote %s's trust into %s: %s"
)

func noteRemovedFile(path string) string {
	return "removed " + path + ": install had created it, and nothing else is left in it"
}

func noteRemovedDirs(dirs []string) string {
	if len(dirs) == 1 {
		return "removed " + dirs[0] + ": install had created it, and it is empty"
	}
	return "removed " + strings.Join(dirs, ", ") + ": install had created them, and they are empty"
}

func errRecordRead(err error) error {
	return refuse("", "read loophook's record of the install: %v", file.PathCause(err))
}

func errRecordWrite(err error) error {
	return refuse("loophook uninstall will then take back only what it recognises as loophook's", "keep loophook's record of the install: %v", file.PathCause(err))
}

// noticeMissing is what a committed registration's guard tells a person at
// session start where loophook is missing: inside a sh single-quoted JSON
// string, so without ', ", \ or $.
const noticeMissing = "loophook is not on PATH on this machine, so the loop hooks this project registers do nothing here: install loophook to have a loop held to its criteria and checks"

func notePathMissing(dir string) string {
	return fmt.Sprintf("the hooks in this file, meant to be committed, run loophook from PATH, and PATH here has none: add %s to PATH, or they do nothing on this machine either (--scope user registers this binary by its path)", shown(dir))
}

func notePathOther(found, bin string) string {
	return fmt.Sprintf("the hooks in this file, meant to be committed, run loophook from PATH, which here is %s, not this one (%s)", found, bin)
}

func noteTokensUnrecorded(title, path string) string {
	return fmt.Sprintf("%s records no token usage: the token budget of %s cannot be measured there, and will not end a loop", title, path)
}

const whereHome = "the home directory"

func errTopKey(key, title string, keys []string) error {
	var quoted []string
	for _, k := range keys {
		quoted = append(quoted, fmt.Sprintf("%q", k))
	}
	return fmt.Errorf("top-level key %q: %s skips a hooks file with anything but %s at the top; move it out", key, strings.Split(title, " ")[0], strings.Join(quoted, " and "))
}

func errPluginEnabled(where string) error {
	return refuse("the plugin registers loophook's hooks already; to install them yourself instead, disable it first (/plugin in Claude Code, or \"loophook@...\": false under enabledPlugins)",
		"the loophook Claude Code plugin is enabled in %s; installing the hooks too would run loophook twice per stop; nothing changed", where)
}

func errDollarInPath(bin, title string) error {
	return refuse("install loophook at a path without $, or set LOOPHOOK_BIN to one",
		"loophook's path %s has a $, which %s would expand as a variable; nothing changed", bin, title)
}

func hintFix(command string) string {
	return "fix it, or move it aside, and run loophook " + command + " again"
}

func errUnreadable(path string, err error, command string) error {
	return refuse(hintFix(command), "%s is %v; nothing changed", path, err)
}

func errCannotChange(path string, err error, command string) error {
	return refuse(hintFix(command), "%s: %v; nothing changed", path, err)
}

func errRead(name string, err error) error {
	return refuse("", "read %s: %v", name, file.PathCause(err))
}

func errWrite(name string, err error) error {
	return refuse("", "write %s: %v", name, file.PathCause(err))
}

func errLarger(limit int64) error {
	return fmt.Errorf("larger than %d MiB", limit>>20)
}

func errHome(err error) error {
	return refuse("", "find the home directory: %v", err)
}

func errDangling(path, target, command string) error {
	return refuse("create the file it points to (it may hold just {}), or remove the link, and run loophook "+command+" again",
		"%s is a symbolic link to %s, which does not exist; nothing changed", path, target)
}

func errNotRegular(path string, mode fs.FileMode, command string) error {
	return refuse("a settings file is a JSON file: move this one aside and run loophook "+command+" again",
		"%s is not a regular file (%s); nothing changed", path, fileKind(mode))
}

// fileKind names a kind of file for a person.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

func errNotAProject(where, dir, command string) error {
	hint := "run loophook install inside a project, or use --scope user to install for every project"
	if command == "uninstall" {
		hint = "run loophook uninstall inside a project, or use --scope user for your user settings"
	}
	return refuse(hint, "%s is not a project: its %s holds your user settings; nothing changed", where, dir)
}

func errScope(h host.Host, scopes []string, scope string) error {
	if h.Install.Default {
		return refuse("", "--scope must be %s, not %q", host.OrList(scopes), scope)
	}
	return refuse("", "--scope must be %s for --host %s, not %q", host.OrList(scopes), h.Name, scope)
}

// The trust file (Codex CLI's config.toml): hint is the host's own way to
// trust the hooks.

func errTrustEdit(path, hint string, err error) error {
	return refuse("fix it, or "+hint, "%s: %v; nothing changed", path, err)
}

func errTrustWrite(trust, hooks, title, hint string, err error) error {
	return refuse(hint+", or run loophook install again",
		"write %s: %v; the hooks are in %s, but %s skips them until they are trusted", trust, file.PathCause(err), hooks, strings.Fields(title)[0])
}
