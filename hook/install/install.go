// Package install plans loophook install and uninstall for any host of
// hook/host: the changes to the host's file (and to its trust file, for
// Codex CLI), the notes a person needs, and the writing, all or nothing.
// It finds loophook's handlers with hook/handler, as a hook call does. It
// prints nothing; cmd/loophook says what the plan did.
package install

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loophook/loophook/hook/handler"
	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/hook/hostfile"
	"github.com/loophook/loophook/hook/refusal"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/internal/file"
)

// A request is one install or uninstall.
type request struct {
	Host      host.Host
	Scope     string
	Wd        string // where the person is
	Bin       string // the loophook the hooks run (binary)
	Uninstall bool
}

// A Plan is what an install or uninstall changes, ready to write.
type Plan struct {
	Host  host.Host
	File  Edit  // the host's file
	Trust *Edit // the host's trust file, nil when it does not change
	// Notes are what the person must know, one sentence each.
	Notes []string
	// picked is the note of the host For picked (Told).
	picked    string
	uninstall bool
	// record is what install keeps of what it did; on uninstall, what an
	// install kept (nil for one made before records). removedDirs are the
	// directories an uninstall removed.
	record      *Record
	removedDirs []string
}

// Repoints reports whether the plan points a loophook hook it found at
// another program, which takes the hooks off as surely as uninstall does.
func (p Plan) Repoints() bool {
	return !p.uninstall && slices.ContainsFunc(p.File.Changes, func(c string) bool {
		return strings.HasPrefix(c, pointed) || strings.HasPrefix(c, extensionRewritten)
	})
}

// An Edit is one file's change.
type Edit struct {
	Path    string // the file as the host names it
	target  string // the file written: Path, its links followed
	Before  []byte
	After   []byte // nil when the file goes
	Changes []string
	// what the host is called, and what a person can do when the file
	// cannot be changed: for a trust file
	title, hint string
	// trustedProject: a trust file's edit trusts the project, which the
	// person had not.
	trustedProject bool
}

// gone reports whether the edit removes the file: uninstall leaves nothing
// of a file that install created.
func (e Edit) gone() bool { return e.After == nil && len(e.Changes) > 0 }

// prepare reads the host's file (and trust file) and plans the change,
// writing nothing; a file that cannot be changed is refused before either
// is written.
func prepare(r request) (*Plan, error) {
	h, reg := r.Host, r.Host.Install
	command := "install"
	if r.Uninstall {
		command = "uninstall"
	}
	path, root, err := hostPath(h, r.Scope, r.Wd, command)
	if err != nil {
		return nil, err
	}
	if !r.Uninstall && reg.Plugin {
		if where, ok := PluginEnabled(handler.Files(h, root)...); ok {
			return nil, errPluginEnabled(shown(where))
		}
	}
	if reg.ExpandsDollar && strings.Contains(r.Bin, "$") {
		return nil, errDollarInPath(r.Bin, h.Title)
	}
	target, data, err := readFile(path, command)
	if err != nil {
		return nil, err
	}
	_, statErr := os.Lstat(path)
	existed := statErr == nil
	var rec *Record
	if existed {
		if rec, err = ReadRecord(target); err != nil {
			return nil, errRecordRead(err)
		}
	}
	if reg.Extension != nil {
		return prepareExtension(h, r, path, target, data, existed, rec)
	}
	doc, err := hostfile.ParseJSON(data, reg.Comments)
	if err != nil {
		return nil, errUnreadable(shown(path), err, command)
	}
	before, _ := hostfile.ParseJSON(data, reg.Comments)
	var others []scopeFile
	if reg.EveryScope {
		others = otherScopes(h, r.Scope, r.Wd, path)
	}
	var changes, notes []string
	if r.Uninstall {
		changes, notes, err = take(h, doc, r.Bin, r.Scope, rec)
	} else {
		changes, notes, err = add(h, doc, r.Bin, r.Scope, others)
	}
	if err != nil {
		return nil, errCannotChange(shown(path), err, command)
	}
	p := &Plan{Host: h, uninstall: r.Uninstall, File: Edit{Path: path, target: target, Before: data, After: data, Changes: changes}}
	if len(changes) > 0 {
		p.File.After = doc.Bytes()
		switch {
		case r.Uninstall && rec != nil:
			if rec.Created && doc.Top().Len() == 0 && !doc.HasComments() {
				p.File.After = nil
			}
		case r.Uninstall && target == path && onlyNewFile(reg, doc, r.Scope, data):
			p.File.After = nil
		}
	}
	if r.Uninstall {
		p.record = rec
	} else {
		p.record = newRecord(h, target, existed, rec, before, doc, r.Bin)
	}
	if reg.Trust != nil {
		if p.Trust, err = prepareTrust(h, r, root, path, before, doc, p.record); err != nil {
			return nil, err
		}
	}
	p.Notes = append(p.Notes, notes...)
	if reg.EveryScope {
		p.Notes = append(p.Notes, alsoInstalled(h, others, r.Bin)...)
	}
	if !r.Uninstall {
		p.Notes = append(p.Notes, alsoRun(h, root, r.Bin)...)
		if reg.Notes != nil {
			_, linked := state.WorkTreeTop(root)
			trusted := p.Trust != nil && p.Trust.trustedProject
			p.Notes = append(p.Notes, reg.Notes(r.Scope, host.Project{Root: root, LinkedWorktree: linked, Trusted: trusted})...)
		}
	}
	return p, nil
}

// Write writes the plan: the host's file, then its trust file, then the
// record of what install did, or, for an uninstall, the record forgotten
// and the directories install created that are empty now removed.
func (p *Plan) Write() error {
	var created []string
	if len(p.File.Changes) > 0 {
		created = append(created, missingDirs(p.File.target)...)
		if err := p.File.write(); err != nil {
			return errWrite(shown(p.File.Path), err)
		}
	}
	if p.Trust != nil {
		created = append(created, missingDirs(p.Trust.target)...)
		if err := p.Trust.write(); err != nil {
			return errTrustWrite(shown(p.Trust.Path), shown(p.File.Path), p.Trust.title, p.Trust.hint, err)
		}
	}
	if p.uninstall {
		if p.record != nil {
			if err := Forget(p.record.Path); err != nil {
				return errRecordWrite(err)
			}
			files := []string{p.record.Path}
			if p.record.Trust != nil {
				files = append(files, p.record.Trust.Path)
			}
			p.removedDirs = RemoveDirs(files...)
		}
		return nil
	}
	if p.record == nil {
		return nil
	}
	if err := RecordDirs(created); err != nil {
		return errRecordWrite(err)
	}
	if err := p.record.Write(); err != nil {
		return errRecordWrite(err)
	}
	return nil
}

// newRecord is the record of an install into the file at target, which
// existed or not, with rec the record kept before: what this install
// added joins it. An install over loophook's hooks that has no record was
// made before records, and gets none: its uninstall looks at the file, as
// it always did.
func newRecord(h host.Host, target string, existed bool, rec *Record, before, after *hostfile.JSON, bin string) *Record {
	had := hasOurs(h.Install, before, bin)
	if had && rec == nil {
		return nil
	}
	added := keysAdded(before.Members(), after.Members())
	if !had || rec == nil {
		return &Record{Path: Physical(target), Host: h.Name, Created: !existed, Keys: added}
	}
	next := *rec
	next.Keys = slices.Clone(rec.Keys)
	for _, k := range added {
		if !slices.Contains(next.Keys, k) {
			next.Keys = append(next.Keys, k)
		}
	}
	next.Created = next.Created || !existed
	return &next
}

func (e Edit) write() error {
	if e.After == nil {
		if err := os.Remove(e.target); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return writeFile(e.target, e.After)
}

// prepareTrust reads and changes a host's trust file, before anything is
// written, so that a trust file that cannot be edited leaves both as they
// were.
func prepareTrust(h host.Host, r request, root, path string, before, after *hostfile.JSON, rec *Record) (*Edit, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	te, err := h.Install.Trust(host.TrustChange{
		Install: !r.Uninstall, Scope: r.Scope, Root: root, File: abs,
		Before: trustHandlers(h.Install, before, r.Bin), After: trustHandlers(h.Install, after, r.Bin),
	})
	if err != nil {
		return nil, errHome(err)
	}
	if r.Uninstall && rec != nil && (rec.Trust == nil || !rec.Trust.Project) {
		te.Withdraw = nil // the person trusted the project, not install
	}
	target, data, err := readFile(te.Path, "install")
	if err != nil {
		return nil, err
	}
	_, statErr := os.Lstat(te.Path)
	existed := statErr == nil
	out, changes, err := hostfile.EditTOML(data, te.TOMLEdit)
	if err != nil {
		return nil, errTrustEdit(shown(te.Path), te.Hint, err)
	}
	if len(changes) == 0 {
		return nil, nil
	}
	empty := len(bytes.TrimSpace(out)) == 0
	trusted := false
	for _, k := range te.Set {
		trusted = trusted || k.Marked && slices.Contains(changes, k.Change)
	}
	switch {
	case r.Uninstall && rec != nil:
		if rec.Trust != nil && rec.Trust.Created && empty {
			out = nil
		}
	case r.Uninstall && target == te.Path && empty:
		out = nil // install created it, and nothing else is left in it
	case rec != nil:
		// Another scope's install may have created it: whichever
		// uninstall leaves it empty takes it back.
		t := &TrustRecord{Path: Physical(target), Created: !existed || trustCreated(Physical(target))}
		if rec.Trust != nil {
			t.Created = t.Created || rec.Trust.Created
			t.Project = rec.Trust.Project
		}
		t.Project = t.Project || trusted
		rec.Trust = t
	}
	return &Edit{Path: te.Path, target: target, Before: data, After: out, Changes: changes, title: h.Title, hint: te.Hint, trustedProject: trusted && !r.Uninstall}, nil
}

// scopeFile is another scope's file, as read.
type scopeFile struct {
	scope, path string
	doc         *hostfile.JSON
}

// otherScopes reads the host's files of the scopes other than scope,
// passing over those that cannot be read.
func otherScopes(h host.Host, scope, wd, path string) []scopeFile {
	var others []scopeFile
	for _, s := range h.Install.Scopes {
		p, _, err := hostPath(h, s.Name, wd, "")
		if s.Name == scope || err != nil || p == path {
			continue
		}
		if doc, ok := readDoc(h, p); ok {
			others = append(others, scopeFile{s.Name, p, doc})
		}
	}
	return others
}

// readDoc reads a host's file, false when it cannot.
func readDoc(h host.Host, path string) (*hostfile.JSON, bool) {
	_, data, err := readFile(path, "")
	if err != nil {
		return nil, false
	}
	doc, err := hostfile.ParseJSON(data, h.Install.Comments)
	return doc, err == nil
}

// alsoInstalled warns of loophook's hooks in the other scopes' files of a
// host that runs every scope's hooks: a stop hook run twice per stop would
// count the runaway guard twice.
func alsoInstalled(h host.Host, others []scopeFile, bin string) []string {
	var notes []string
	for _, o := range others {
		if hasOurs(h.Install, o.doc, bin) {
			notes = append(notes, noteAlsoInstalled(shown(o.path), o.scope, h.Title))
		}
	}
	return notes
}

// alsoRun warns of loophook's hooks in the project files of the host whose
// hooks this one runs too (Copilot CLI runs Claude Code's).
func alsoRun(h host.Host, root, bin string) []string {
	g, err := host.Lookup(h.Runs)
	if h.Runs == "" || err != nil || g.Install == nil {
		return nil
	}
	var notes []string
	for _, s := range g.Install.Scopes {
		if s.Name == "user" {
			continue
		}
		f, err := s.File(root)
		if err != nil {
			continue
		}
		if doc, ok := readDoc(g, f); ok && hasOurs(g.Install, doc, bin) {
			notes = append(notes, noteAlsoRun(shown(f), h.Title, g.Name, g.Title))
		}
	}
	return notes
}

// hostPath is the file of a host's scope, and the project's directory for
// the host. The project scopes are refused where the project's file would
// be the user's own: in the home directory outside any work tree, or in a
// work tree whose root is the home directory. command names what was
// refused.
func hostPath(h host.Host, scope, wd, command string) (path, root string, err error) {
	reg := h.Install
	var names []string
	var file func(string) (string, error)
	var user func(string) (string, error)
	for _, s := range reg.Scopes {
		names = append(names, s.Name)
		if s.Name == scope {
			file = s.File
		}
		if s.Name == "user" {
			user = s.File
		}
	}
	if file == nil {
		return "", "", errScope(h, names, scope)
	}
	root = handler.ProjectDir(h, wd)
	if path, err = file(root); err != nil {
		return "", "", errHome(err)
	}
	if scope != "user" && user != nil {
		if u, err := user(root); err == nil && sameDir(filepath.Dir(path), filepath.Dir(u)) {
			where := shown(root)
			if home, err := os.UserHomeDir(); err == nil && sameDir(root, home) {
				where = whereHome
			}
			return "", "", errNotAProject(where, filepath.Base(filepath.Dir(path)), command)
		}
	}
	return path, root, nil
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

// detect is the host install picks when none is named: the default
// (Claude Code), whatever folders the project has, and a note naming the
// other hosts' folders found, so that a .gemini/GEMINI.md never silently
// sends the hooks elsewhere. command is install or uninstall.
func detect(wd, command string) (host.Host, string) {
	def := Default()
	var seen, names []string
	for _, h := range host.Installable() {
		if h.Name == def.Name {
			continue
		}
		dir := handler.ProjectDir(h, wd)
		for _, m := range h.Install.Marks {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m))); err == nil {
				seen = append(seen, m)
				names = append(names, h.Name)
				break
			}
		}
	}
	if len(seen) == 0 {
		return def, ""
	}
	return def, noteOtherHosts(def.Name, command, seen, names)
}

// Default is the host install picks when the project shows none.
func Default() host.Host {
	hosts := host.Installable()
	if i := slices.IndexFunc(hosts, func(h host.Host) bool { return h.Install.Default }); i >= 0 {
		return hosts[i]
	}
	return hosts[0]
}

// binary is the path the hooks run: LOOPHOOK_BIN when set, else this
// binary's, with symbolic links resolved.
func binary() (string, error) {
	if bin := os.Getenv("LOOPHOOK_BIN"); bin != "" {
		if !filepath.IsAbs(bin) {
			return "", refuse("", "LOOPHOOK_BIN must be an absolute path, not %q", bin)
		}
		return bin, nil
	}
	bin, err := os.Executable()
	if err == nil {
		bin, err = filepath.EvalSymlinks(bin)
	}
	if err != nil {
		return "", refuse("set LOOPHOOK_BIN to loophook's absolute path", "find loophook's own path: %v", err)
	}
	return bin, nil
}

// refuse is an error a person can act on: what is wrong, and what to do.
var refuse = refusal.New

// shown names a file for a person (file.Shown).
var shown = file.Shown
