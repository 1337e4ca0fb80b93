package host

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/loophook/loophook/hook/hostfile"
)

// A Registration is how loophook install registers loophook's hooks with a
// host: the file of each scope, the events, how a handler is written and
// found again, and what the host needs beside it. One install algorithm
// (hook/install, finding handlers with hook/handler) reads every host's;
// what only one host needs is a field here that the others leave empty.
type Registration struct {
	// Scopes are the files the hooks can go in; the first is the default.
	Scopes []Scope
	// InWorkTree: the project is the top of the enclosing git work tree
	// (else the current directory, where the host reads it, as Gemini CLI).
	InWorkTree bool
	// Marks are project paths that show the host is used there: install
	// without --host names those it finds, and installs for the default.
	Marks []string
	// Default: the host install picks when none is named.
	Default bool
	// Events are the host's events, each with the loophook command that
	// answers it.
	Events []Event
	// TopLevelEvents: the file keys the events at its top level, not
	// under "hooks" (Factory Droid's hooks.json).
	TopLevelEvents bool
	// Grouped: the handlers sit in {"hooks": [...]} matcher groups, as
	// Claude Code's do; else an event's list holds the handlers.
	Grouped bool
	// CommandKeys are the members that may hold a handler's command line;
	// loophook writes the first.
	CommandKeys []string
	// Windows is how the host runs a handler on Windows, where no sh is on
	// PATH outside Git Bash.
	Windows Windows
	// Handler is loophook's handler for an event, its members in order:
	// the command line under CommandKeys[0], and an explicit timeout long
	// enough for a loop's checks.
	Handler func(ev Event, command string) []Member
	// NewFile are the members a file that install creates starts with, before
	// "hooks", in scope.
	NewFile func(scope string) []Member
	// TopKeys, when set, are the only top-level members the host reads
	// a hooks file with: install refuses a file with any other.
	TopKeys []string
	// Comments: the host reads JSON with comments, and so may a person
	// have written them; else a file with comments is refused.
	Comments bool
	// ExpandsDollar: the host expands $VAR in its settings' strings, so a $
	// in loophook's path would be read as a variable.
	ExpandsDollar bool
	// BlockCap, when set, is the setting (under "env", or at the top
	// level) that raises the host's cap on consecutive blocks so that the
	// loop's own limits end it; a value a person set, in any scope, is
	// theirs.
	BlockCap *Setting
	// EveryScope: the host runs the hooks of every scope's file, so that
	// loophook's in two files would count every stop twice.
	EveryScope bool
	// Plugin: loophook's plugin for this host registers the hooks itself;
	// install refuses while the host's settings enable it.
	Plugin bool
	// Trust, when set, is the change to a second file the host needs to run
	// the hooks at all (Codex CLI's config.toml).
	Trust func(TrustChange) (*TrustEdit, error)
	// Notes are what a person must know after an install into scope.
	Notes func(scope string, p Project) []string
	// Extension, when set, is a host without command hooks (Pi): each
	// scope's file is loophook's own extension, written whole, and the
	// members above that shape handlers in a hooks file go unused.
	Extension *Extension
}

// An Extension is a file install writes whole: loophook's program for a
// host that loads code, not commands.
type Extension struct {
	// Bytes is the file, running bin.
	Bytes func(bin string) []byte
	// Ours recognises a file an install wrote, whatever loophook it runs,
	// so that install replaces it and uninstall removes it; any other file
	// there is a person's.
	Ours func(data []byte) bool
}

// Windows is how a host runs loophook's handler on Windows: the shell
// that reads the line under CommandKeys[0], or, with Key set, a member of
// its own that the host runs there in place of it (Codex CLI's
// commandWindows, Copilot CLI's powershell).
type Windows struct {
	Shell Shell
	Key   string
}

// A Shell is what reads a handler's command line.
type Shell int

const (
	// Sh: sh -c or bash -c, as on Unix (Factory Droid runs sh on Windows
	// too: Git Bash's).
	Sh Shell = iota
	// Exec: no shell; "command" is the program and "args" its arguments
	// (Claude Code's exec form).
	Exec
	// PowerShell: & 'program' arguments.
	PowerShell
	// Cmd: cmd.exe /d /s /c, or %COMSPEC% /C; the line must read the same
	// in Git Bash's bash, which Qwen Code runs inside Git Bash.
	Cmd
)

// A Scope is a file the hooks can go in, by the project's directory.
type Scope struct {
	Name string
	File func(root string) (string, error)
}

// An Event is a host's hook event and the loophook command that answers it.
type Event struct{ Name, Command string }

// A Member is one member of a JSON object, as loophook writes it: its
// value a string, an int or a bool.
type Member struct {
	Key   string
	Value any
}

// A Setting is a key and loophook's value for it: a string under "env"
// (Claude Code's CLAUDE_CODE_STOP_HOOK_BLOCK_CAP), or with Top a number at
// the top level (Qwen Code's stopHookBlockingCap).
type Setting struct {
	Key, Value string
	Top        bool
}

// Name is the setting as a person finds it in the file: env.KEY, or KEY.
func (s Setting) Name() string {
	if s.Top {
		return s.Key
	}
	return "env." + s.Key
}

// Shown is loophook's value as the file holds it: "50", or 51.
func (s Setting) Shown() string {
	if s.Top {
		return s.Value
	}
	return strconv.Quote(s.Value)
}

// A Project is where install writes, for a host's notes.
type Project struct {
	Root string
	// LinkedWorktree: Root is a linked git worktree, whose .git is a file.
	LinkedWorktree bool
	// Trusted: install trusted the project in the host's trust file now.
	Trusted bool
}

// TrustChange is a change of loophook's handlers in a host's hooks file,
// as a host's Trust reads it.
type TrustChange struct {
	Install     bool
	Scope, Root string
	File        string // the hooks file, absolute
	// Before and After are loophook's handlers in the file before and
	// after the change.
	Before, After []Handler
}

// A Handler is one of loophook's handlers as it stands in a hooks file:
// its event, its matcher group's and its own position, its members, and
// whether its group holds nothing but its handlers.
type Handler struct {
	Event        string
	Group, Index int
	Members      []Member // values: string, int64, float64, bool, nil, or other for anything else
	GroupPlain   bool
}

// A TrustEdit is what Trust changes in a TOML file, and what a person can
// do when the file cannot be changed (Hint).
type TrustEdit struct {
	Path string
	hostfile.TOMLEdit
	Hint string
}

// homeDir is dir under the home directory, or env's value when set.
func homeDir(env string, dir ...string) (string, error) {
	if v := os.Getenv(env); v != "" {
		return v, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{home}, dir...)...), nil
}

// inProject is a scope's file at a path under the project's directory.
func inProject(path ...string) func(root string) (string, error) {
	return func(root string) (string, error) {
		return filepath.Join(append([]string{root}, path...)...), nil
	}
}
