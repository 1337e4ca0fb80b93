package install

import (
	"bytes"

	"github.com/loophook/loophook/hook/host"
)

// prepareExtension plans install or uninstall for a host whose scope's file
// is loophook's own extension (Pi): install writes it whole, running bin,
// or leaves it when it is that already; uninstall removes it. A file there
// that install did not write is a person's, and is refused, never
// replaced or removed. The install record (rec, kept before) says whether
// install created the file, and so the directories it made for it, which
// uninstall removes once empty.
func prepareExtension(h host.Host, r request, path, target string, data []byte, existed bool, rec *Record) (*Plan, error) {
	ext := h.Install.Extension
	p := &Plan{Host: h, uninstall: r.Uninstall, File: Edit{Path: path, target: target, Before: data, After: data}}
	theirs := data != nil && !ext.Ours(data)
	switch {
	case r.Uninstall && theirs:
		return nil, errNotOurExtension(shown(path), "uninstall")
	case r.Uninstall && data != nil:
		p.File.After, p.File.Changes = nil, []string{changeExtensionRemoved}
	case r.Uninstall:
	case theirs:
		return nil, errNotOurExtension(shown(path), "install")
	default:
		want := ext.Bytes(r.Bin)
		switch {
		case data == nil:
			p.File.Changes = []string{changeExtensionAdded}
		case bytes.Equal(data, want):
		default:
			p.File.Changes = []string{changeExtensionRewritten(r.Bin)}
		}
		if len(p.File.Changes) > 0 {
			p.File.After = want
		}
	}
	switch {
	case r.Uninstall:
		p.record = rec
	case rec != nil:
		p.record = rec
	case !existed:
		p.record = &Record{Path: Physical(target), Host: h.Name, Created: true}
	}
	if !r.Uninstall {
		p.Notes = append(p.Notes, otherExtension(h, r)...)
		if h.Install.Notes != nil {
			p.Notes = append(p.Notes, h.Install.Notes(r.Scope, host.Project{Root: r.Wd})...)
		}
	}
	return p, nil
}

// otherExtension warns of loophook's extension in another scope: the host
// loads both.
func otherExtension(h host.Host, r request) []string {
	var notes []string
	for _, s := range h.Install.Scopes {
		if s.Name == r.Scope {
			continue
		}
		p, _, err := hostPath(h, s.Name, r.Wd, "")
		if err != nil {
			continue
		}
		if _, data, err := readFile(p, ""); err == nil && data != nil && h.Install.Extension.Ours(data) {
			notes = append(notes, noteAlsoExtension(shown(p), s.Name, h.Title, h.Name))
		}
	}
	return notes
}
