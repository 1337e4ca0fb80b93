package handler

import (
	"bytes"
	"os"

	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/hook/hostfile"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/internal/file"
)

// MaxFile is the largest host file loophook reads.
const MaxFile = 16 << 20

// Files are a host's files for the project at root, lowest
// precedence first: user, then the project's, in the row's order (Claude
// Code: user, project, local).
func Files(h host.Host, root string) []string {
	var user, project []string
	for _, s := range h.Install.Scopes {
		f, err := s.File(root)
		switch {
		case err != nil:
		case s.Name == "user":
			user = append(user, f)
		default:
			project = append(project, f)
		}
	}
	return append(user, project...)
}

// InstalledBeside names the file of the plugin's host (Claude Code) in
// which loophook install registered loophook for the hook command (stop,
// session-start), when the plugin runs that event too: the plugin then
// stands aside and the installed hook, with its block cap, answers alone.
// ok is false when no file registers it.
func InstalledBeside(command string) (where string, ok bool) {
	for _, h := range host.Installable() {
		if h.Install.Plugin {
			return Registered(h, command)
		}
	}
	return "", false
}

// Registered names the file of h, for the project the hook call runs in,
// that registers loophook's hook for command; ok is false when none does.
func Registered(h host.Host, command string) (where string, ok bool) {
	if h.Install == nil {
		return "", false
	}
	dir := ""
	for _, v := range h.ProjectDir {
		if dir = os.Getenv(v); dir != "" {
			break
		}
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	for _, f := range Files(h, ProjectDir(h, dir)) {
		b, err := file.Read(f, MaxFile)
		if err != nil || !bytes.Contains(b, []byte("loophook")) {
			continue
		}
		doc, err := hostfile.ParseJSON(b, h.Install.Comments)
		if err != nil {
			continue
		}
		hooks, _ := doc.Top().Object("hooks", "")
		if hooks == nil {
			continue
		}
		for _, ev := range h.Install.Events {
			if ev.Command != command {
				continue
			}
			list, _ := hooks.List(ev.Name, "")
			if len(Find(h.Install, list, "", command)) > 0 {
				return f, true
			}
		}
	}
	return "", false
}

// ProjectDir is the directory a host reads a project's files from.
func ProjectDir(h host.Host, wd string) string {
	if h.Install.InWorkTree {
		top, _ := state.WorkTreeTop(wd)
		return top
	}
	return wd
}
