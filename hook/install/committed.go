package install

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/handler"
	"github.com/loophook/loophook/hook/host"
)

// A committed registration (the project scope's file, meant to be
// committed) must work on every teammate's machine: it runs loophook from
// PATH, never this machine's path, behind a guard that stays quiet where
// loophook is missing (a host shows a failing hook at every turn) and says
// so once per session, at session start. The user and local scopes are one
// person's, and keep the binary's absolute path, which needs no PATH.

// committedScope is the scope whose file is meant to be committed.
const committedScope = "project"

// pathProgram is loophook as a committed registration names it.
const pathProgram = "loophook"

// guarded is line, a sh command line that runs bin, behind the guard: when
// bin is not there, a stop lets the agent stop, saying nothing, and a
// session start tells the person, in the member the host shows them
// (tells), else on stderr.
func guarded(line, bin string, ev host.Event, tells string) string {
	missing := "exit 0"
	if ev.Command == "session-start" {
		if tells != "" {
			missing = "{ echo '{\"" + tells + "\":\"" + noticeMissing + "\"}'; exit 0; }"
		} else {
			missing = "{ echo '" + hook.Prefix + noticeMissing + "' >&2; exit 0; }"
		}
	}
	return handler.GuardPrefix + shellQuote(bin) + " >/dev/null 2>&1 || " + missing + "; exec " + line
}

// ownForm reports whether line is written the way install writes it,
// guarded or plain (the program, the command, --protocol and its value),
// with nothing of a person's in it: install may rewrite it whole.
func ownForm(line, bin, command string) bool {
	if handler.IsGuarded(line) {
		return true
	}
	c, ok := handler.Parse(line, bin, command)
	if !ok || c.Prog.Start != 0 {
		return false
	}
	rest := c.Args[1:]
	return len(rest) == 0 || len(rest) == 2 && rest[0].Text == "--protocol" && c.Line[rest[1].End:] == ""
}

// pathNote is what a person must know of the loophook a committed
// registration runs from PATH here, bin being this one: "" when PATH finds
// this binary.
func pathNote(bin string) string {
	found, err := exec.LookPath(pathProgram)
	if err != nil {
		return notePathMissing(filepath.Dir(bin))
	}
	if a, b := Physical(found), Physical(bin); a != b {
		if fa, errA := os.Stat(a); errA != nil || !sameFile(fa, b) {
			return notePathOther(shown(found), shown(bin))
		}
	}
	return ""
}

func sameFile(fa os.FileInfo, b string) bool {
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
