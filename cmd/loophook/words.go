package main

import (
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/statefile"
)

// Every sentence a person reads from loophook's commands is written here or
// beside the flag or command it describes; the "loophook: " prefix is added
// once, by report and note.

const (
	appUsage       = "decide whether an AI coding agent's work loop may stop"
	appDescription = "loophook reads the loop's .loop/state.json and answers the agent host's Stop hook:\n" +
		"go on while criteria are unmet, stop when every criterion is met and exit_signal is true,\n" +
		"or when a limit, the circuit breaker or the runaway guard ends the loop.\n\n" +
		"Start here:\n" +
		"   loophook init --spec \"add a --json flag\" --criterion \"tests pass\"\n" +
		"   loophook install\n" +
		"   loophook status"
)

// Errors and their hints.
const (
	hintHelp          = "see loophook --help"
	hintInit          = "start a loop with: loophook init --spec \"...\" --criterion \"...\""
	msgUnknownCommand = "unknown command %q"
	msgFlag           = "%v"
	msgArgument       = "unexpected argument %q"
	msgEnv            = "%s=%q: %v"
	msgAtLeastOne     = "--%s must be at least 1, not %d"
	msgAtLeastZero    = "--%s must be at least 0, not %s"
	msgOnInvalid      = "--on-invalid must be block or allow, not %q"
	msgProtocol       = "--protocol: %v"
	msgDialect        = "--dialect: %v"
	msgNoState        = "no loop state found from %s (looked for %s)"
	msgFindState      = "find the state: %v"
	msgFileError      = "%s: %v"
	msgInvalidState   = "%s is not a valid %s state (%d %s)"
	msgValid          = "%s: valid %s state"
	msgCancelDialect  = "%s holds a loop of dialect %s; cancel changes only %s"
	hintCancelDialect = "stop that loop the way its own system does"
	msgNote           = "note: %v"
	msgStandAside     = "the loophook plugin stands aside: loophook install registered this hook in %s, which answers alone"
	msgProgress       = "%d of %d criteria met"
	msgBudget         = "%s of %s"
	msgUnrecorded     = "limit %s, not recorded by this host"
	msgWatchJSON      = "--watch redraws text; it does not go with --json"
	clearScreen       = "\x1b[H\x1b[2J"
	msgReadJournal    = "read the journal: %v"
	msgNoJournal      = "no evaluations yet of the loop in %s"
	msgUnchanged      = "(state unchanged, guard %d)"
	msgWhyBudgets     = "(budgets: %s)"
	msgWhyBudget      = "%s %s of %s"
	msgWhyUnrecorded  = "%s not recorded by this host"
)

// note returns a writer of notes for a person, one line each.
func note(w io.Writer) func(string) {
	return func(msg string) { fmt.Fprintln(w, hook.Prefix+msg) }
}

// The sentences people read from cancel, init, install and uninstall, kept
// together so that their voice can be reviewed in one sitting. Errors and
// notes are lower-case, one line; report adds the "loophook: " prefix to an
// error and prints its hint on a "hint: " line.

// files

func errRead(name string, err error) error {
	return fail("", "read %s: %v", name, pathCause(err))
}

func errWrite(name string, err error) error {
	return fail("", "write %s: %v", name, pathCause(err))
}

func errLink(name, hint string) error {
	return fail(hint, "%s is a symbolic link; refusing to write through it", name)
}

func whyNotRegular(m fs.FileMode) string {
	return "not a regular file (" + fileKind(m) + ")"
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

func errLarger(limit int64) error {
	return fmt.Errorf("larger than %d MiB", limit>>20)
}

// cancel

func msgCancelled(path, was string) string {
	return fmt.Sprintf("cancelled the loop in %s (status was %s)", path, was)
}

func msgAlreadyCancelled(path string) string {
	return fmt.Sprintf("the loop in %s is already cancelled; nothing changed", path)
}

func msgMovedAside(from, to, why string) string {
	return fmt.Sprintf("cancelled the loop by moving %s to %s, since it cannot be edited: %s", from, to, why)
}

// init

// msgStarted sums up a new loop, with the hook's ceiling on its iterations
// when it asked for more.
func msgStarted(path string, l statefile.Loop) string {
	max := count(l.MaxIterations, "iteration", "iterations")
	if c := criteria.DefaultIterationCeiling; l.MaxIterations > c {
		max = fmt.Sprintf("%s; the hook holds it to %d (its --iteration-ceiling)", max, c)
	}
	return fmt.Sprintf("wrote %s: %s, %s, at most %s", path, count(len(l.Criteria), "criterion", "criteria"), count(len(l.Steps), "step", "steps"), max)
}

// install and uninstall

func errDanglingSettings(path, target, command string) error {
	return fail("create the file it points to (it may hold just {}), or remove the link, and run loophook "+command+" again",
		"%s is a symbolic link to %s, which does not exist; nothing changed", path, target)
}

func errNotRegularSettings(path string, mode fs.FileMode, command string) error {
	return fail("a settings file is a JSON file: move this one aside and run loophook "+command+" again",
		"%s is %s; nothing changed", path, whyNotRegular(mode))
}

func errNotAProject(where, dir, command string) error {
	hint := "run loophook install inside a project, or use --scope user to install for every project"
	if command == "uninstall" {
		hint = "run loophook uninstall inside a project, or use --scope user for your user settings"
	}
	return fail(hint, "%s is not a project: its %s holds your user settings; nothing changed", where, dir)
}

func errUnknownHost(name string, names []string) error {
	return fail("", "--host must be %s, not %q", orList(names), name)
}

func errScope(host string, scopes []string, scope string) error {
	if host == "claude" {
		return fail("", "--scope must be %s, not %q", orList(scopes), scope)
	}
	return fail("", "--scope must be %s for --host %s, not %q", orList(scopes), host, scope)
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func errPluginEnabled(where string) error {
	return fail("the plugin registers loophook's hooks already; to install them yourself instead, disable it first (/plugin in Claude Code, or \"loophook@...\": false under enabledPlugins)",
		"the loophook Claude Code plugin is enabled in %s; installing the hooks too would run loophook twice per stop; nothing changed", where)
}

func noteHostFound(host, mark string) string {
	return fmt.Sprintf("--host %s, since this project has %s (choose another with --host)", host, mark)
}

func noteHostDefault(marks []string) string {
	return fmt.Sprintf("--host claude: this project has %s, more than one host's configuration (choose one with --host)", strings.Join(marks, ", "))
}

func hintByHand(path string) string {
	return "add loophook's hooks to " + shown(path) + " by hand, or move the comments out of \"hooks\""
}

const hintTrustByHand = "fix it, or run codex and trust loophook's hooks in /hooks"

func errTrustWrite(trust, hooks string, err error) error {
	return fail("run codex and trust loophook's hooks in /hooks, or run loophook install again",
		"write %s: %v; the hooks are in %s, but Codex skips them until they are trusted", trust, pathCause(err), hooks)
}

func msgTrustWritten(path string, changes []string) string {
	return fmt.Sprintf("wrote Codex's trust into %s: %s", path, strings.Join(changes, ", "))
}

func errCodexTopKey(key string) error {
	return fmt.Errorf("top-level key %q: Codex skips a hooks file with anything but \"description\" and \"hooks\" at the top; move it out", key)
}

func errDollarInPath(bin string) error {
	return fail("install loophook at a path without $, or set LOOPHOOK_BIN to one",
		"loophook's path %s has a $, which Gemini CLI would expand as a variable; nothing changed", bin)
}

func errTOMLElsewhere(table, line string) error {
	return fmt.Errorf("%s is defined without a table header (%s); loophook adds only [%s.\"...\"] tables", table, strings.TrimSpace(line), table)
}

// What each host's person needs to know after an install.

func codexTell(scope, root, bin string) []string {
	notes := []string{
		"Codex has no cap on continuations: loophook's runaway guard and the loop's limits are the only brake",
		"to see it work: codex exec \"...\" prints \"hook: Stop\" on stderr at each stop; nothing there means the hooks were skipped (untrusted or changed: run codex and review them in /hooks)",
	}
	if scope == "project" && isLinkedWorktree(root) {
		notes = append(notes, "this is a linked git worktree, where Codex runs no project hooks: use --scope user")
	}
	return notes
}

func geminiTell(scope, root, bin string) []string {
	notes := []string{
		"Gemini CLI runs hooks only in a trusted folder (trust it when gemini asks, or set GEMINI_CLI_TRUST_WORKSPACE=true); headless gemini -p also needs --approval-mode auto_edit for the agent to write the state file",
		"Gemini CLI has no cap on continuations: loophook's runaway guard and the loop's limits are the only brake",
		"to see it work: loophook status after a gemini -p run shows the loop's iterations",
	}
	if scope == "project" {
		notes = append([]string{"Gemini CLI reads .gemini/settings.json only in the directory it starts in (" + root + "), not above it: start gemini there"}, notes...)
	}
	return notes
}

func copilotTell(scope, root, bin string) []string {
	notes := []string{
		"Copilot CLI runs a project's hooks only in a trusted folder (trust it when copilot asks, or pass --trust-folder to copilot -p)",
		"Copilot CLI allows 8 continuations per prompt, fixed: a loop not done by then goes on at the next prompt",
		"to see it work: loophook status after a copilot -p run shows the loop's iterations",
	}
	for _, f := range claudeFiles(root)[1:] {
		if _, data, err := readSettings(f, ""); err == nil {
			if doc, err := decodeSettings(data); err == nil && hasLoophookHooks(doc, bin) {
				notes = append(notes, shown(f)+" has loophook's hooks too, and Copilot CLI runs those as well: each stop is evaluated twice (remove them with loophook uninstall --host claude if this project is not used with Claude Code)")
			}
		}
	}
	return notes
}

func noteCapSetElsewhere(value, path, scope string) string {
	return fmt.Sprintf("kept env.%s at %s, set in %s (%s scope); loophook's %q is not added here", blockCapKey, value, path, scope, blockCap)
}

func changeProtocol(event string) string {
	return "set --protocol claude on the " + event + " hook"
}
