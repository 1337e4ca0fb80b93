// Package handler is loophook's handler in a host's hooks file: a command
// line that runs loophook, in every form install writes (the Windows forms
// and the guard of a committed file among them) or a person may, found in
// a host's file. Install plans and writes with it; a hook call asks it
// which host's wire it answers in and whether the plugin's hook stands
// aside for an installed one, so the hook path never calls the installer.
package handler

import (
	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/hook/hostfile"
)

// Found is one of loophook's handlers in a file: the object, the member
// that holds its command line, and where it is (its matcher group's
// index, and its own within the group or the event's list).
type Found struct {
	Obj          *hostfile.Object
	Key          string
	Group, Index int
	GroupPlain   bool
	// Args: the handler is in exec form, Key's value the program and
	// these its arguments.
	Args []string
}

// execArgs are a handler's arguments in exec form ("args", Claude Code's),
// nil when it has none.
func execArgs(o *hostfile.Object) []string {
	l, err := o.List("args", "")
	if err != nil || l == nil {
		return nil
	}
	args, ok := l.Strings()
	if !ok || args == nil {
		return nil
	}
	return args
}

// Find lists loophook's handlers for command in an event's list. Anything
// of another shape is someone else's and is skipped.
func Find(reg *host.Registration, list *hostfile.List, bin, command string) []Found {
	if list == nil {
		return nil
	}
	var found []Found
	inList := func(l *hostfile.List, group int, plain bool) {
		for i := 0; i < l.Len(); i++ {
			o, ok := l.Object(i)
			if !ok {
				continue
			}
			for _, key := range reg.CommandKeys {
				if !o.Has(key) {
					continue
				}
				h := Found{Obj: o, Key: key, Group: group, Index: i, GroupPlain: plain, Args: execArgs(o)}
				if s, ok := o.String(key); ok && (h.Args == nil && ours(s, bin, command) || h.Args != nil && IsLoophook(s, bin) && h.Args[0] == command) {
					found = append(found, h)
				}
				break
			}
		}
	}
	if !reg.Grouped {
		inList(list, 0, true)
		return found
	}
	for g := 0; g < list.Len(); g++ {
		group, ok := list.Object(g)
		if !ok {
			continue
		}
		if handlers, err := group.List("hooks", ""); err == nil && handlers != nil {
			inList(handlers, g, group.Len() == 1)
		}
	}
	return found
}

// ours reports whether line is the command line of loophook's handler for
// command: the one bin would be installed as, or any loophook's.
func ours(line, bin, command string) bool {
	_, ok := Parse(line, bin, command)
	return ok
}
