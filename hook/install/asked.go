package install

import (
	"fmt"
	"os"
	"strings"

	"github.com/loophook/loophook/hook/host"
)

// Asked is what a person's loophook install or uninstall asks for.
type Asked struct {
	Host      string // --host; "" for the default
	Named     bool   // --host was given, even empty
	Scope     string // --scope
	Uninstall bool
}

// For plans what a person asked for, from the working directory: the host
// named, else the default (a note names other hosts' folders found), this loophook's path, and a note when the project's token
// budget is one the host cannot measure. It writes nothing.
func For(a Asked) (*Plan, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, refuse("", "find the project: %v", err)
	}
	h, picked := Default(), ""
	if a.Named || a.Host != "" {
		if h, err = host.Lookup(a.Host); err != nil || h.Install == nil {
			return nil, refuse("", "--host must be %s, not %q", host.OrList(host.InstallableNames()), a.Host)
		}
	} else {
		command := "install"
		if a.Uninstall {
			command = "uninstall"
		}
		h, picked = detect(wd, command)
	}
	bin, err := binary()
	if err != nil {
		return nil, err
	}
	// A file meant to be committed names loophook from PATH, unless
	// LOOPHOOK_BIN names the path to write (committed.go).
	self, fromPath := bin, a.Scope == committedScope && os.Getenv("LOOPHOOK_BIN") == ""
	if fromPath {
		bin = pathProgram
	}
	p, err := prepare(request{Host: h, Scope: a.Scope, Wd: wd, Bin: bin, Uninstall: a.Uninstall})
	if err != nil {
		return nil, err
	}
	p.picked = picked
	if !a.Uninstall {
		if n := tokensUnrecorded(h, wd); n != "" {
			p.Notes = append(p.Notes, n)
		}
		if n := pathNote(self); fromPath && n != "" {
			p.Notes = append(p.Notes, n)
		}
	}
	return p, nil
}

// Said is what the plan did, or a dry run would do: a line for the host's
// file, and one for its trust file when it changes.
func (p *Plan) Said(dryRun bool) []string {
	command, done, nothing := "install", "installed into", "already installed in"
	if p.uninstall {
		command, done, nothing = "uninstall", "uninstalled from", "not installed in"
	}
	f := p.File
	path := shown(f.Path)
	var lines []string
	switch {
	case len(f.Changes) == 0 && dryRun:
		lines = append(lines, fmt.Sprintf(saidDryRunSame, nothing, path))
	case len(f.Changes) == 0:
		lines = append(lines, fmt.Sprintf(saidSame, nothing, path))
	case dryRun:
		lines = append(lines, fmt.Sprintf(saidDryRun, command, path, strings.Join(planned(f.Changes), ", ")))
	default:
		lines = append(lines, fmt.Sprintf(saidEdited, done, path, strings.Join(f.Changes, ", ")))
	}
	if t := p.Trust; t != nil && dryRun {
		lines = append(lines, fmt.Sprintf(saidDryRun, command, shown(t.Path), strings.Join(planned(t.Changes), ", ")))
	} else if t != nil {
		lines = append(lines, fmt.Sprintf(saidTrust, strings.Fields(p.Host.Title)[0], shown(t.Path), strings.Join(t.Changes, ", ")))
	}
	return lines
}

// Told is every note for the person, in order: the host picked, the files
// that an uninstall removed (a dry run removes none), then Notes.
func (p *Plan) Told(dryRun bool) []string {
	var notes []string
	if p.picked != "" {
		notes = append(notes, p.picked)
	}
	if !dryRun {
		for _, e := range []*Edit{&p.File, p.Trust} {
			// An extension is loophook's whole file: Said says it went.
			if e != nil && e.gone() && (e != &p.File || p.Host.Install.Extension == nil) {
				notes = append(notes, noteRemovedFile(shown(e.Path)))
			}
		}
		if len(p.removedDirs) > 0 {
			var dirs []string
			for _, d := range p.removedDirs {
				dirs = append(dirs, shown(d))
			}
			notes = append(notes, noteRemovedDirs(dirs))
		}
	}
	return append(notes, p.Notes...)
}
