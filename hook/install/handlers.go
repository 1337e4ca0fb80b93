package install

import (
	"slices"
	"strconv"
	"strings"

	"github.com/loophook/loophook/hook/handler"
	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/hook/hostfile"
)

// One install algorithm for every host: loophook's handlers for each of the
// host's events, in its file's "hooks" object, written and found by its
// registration; what only one host needs (Claude Code's block cap, Codex's
// top-level keys, Copilot's version) is a field of its row.

// commandOf is a handler's command line as sh reads it; an exec form's
// written as one.
func commandOf(h handler.Found) string {
	s, _ := h.Obj.String(h.Key)
	if h.Args == nil {
		return s
	}
	line := shellQuote(s)
	for _, a := range h.Args {
		line += " " + shellQuote(a)
	}
	return line
}

// lineShell is the shell that reads the line under a host's first command
// key, as install writes it: Windows's shell where that is the key
// Windows runs, else sh; an exec form's line is written as sh's.
func lineShell(reg *host.Registration) host.Shell {
	if onWindows && reg.Windows.Key == "" && reg.Windows.Shell != host.Exec {
		return reg.Windows.Shell
	}
	return host.Sh
}

// execForm reports whether install writes the host's handlers in exec form.
func execForm(reg *host.Registration) bool { return onWindows && reg.Windows.Shell == host.Exec }

// remove takes the handlers drop picks out of an event's list, with the
// matcher groups this leaves with no handler; groups that were empty
// already stay.
func remove(reg *host.Registration, list *hostfile.List, found []handler.Found, drop func(handler.Found) bool) {
	picked := func(group, index int) bool {
		for _, f := range found {
			if f.Group == group && f.Index == index && drop(f) {
				return true
			}
		}
		return false
	}
	if !reg.Grouped {
		list.RemoveIf(func(i int) bool { return picked(0, i) })
		return
	}
	list.RemoveIf(func(g int) bool {
		group, ok := list.Object(g)
		if !ok {
			return false
		}
		handlers, err := group.List("hooks", "")
		if err != nil || handlers == nil {
			return false
		}
		if handlers.RemoveIf(func(i int) bool { return picked(g, i) }) == 0 {
			return false
		}
		return handlers.Len() == 0
	})
}

// entry is loophook's new entry in an event's list: the handler, in a
// matcher group of its own where the host groups them; on Windows, in the
// form the host runs there.
func entry(reg *host.Registration, ev host.Event, bin, protocol string, wrap func(host.Event, string) string) any {
	var handler []hostfile.Member
	line := wrap(ev, commandLine(lineShell(reg), bin, ev.Command, protocol))
	for _, m := range reg.Handler(ev, line) {
		handler = append(handler, hostfile.Member{Key: m.Key, Value: m.Value})
		if m.Key != reg.CommandKeys[0] {
			continue
		}
		switch {
		case execForm(reg):
			handler[len(handler)-1].Value = bin
			handler = append(handler, hostfile.Member{Key: "args", Value: []any{ev.Command, "--protocol", protocol}})
		case onWindows && reg.Windows.Key != "":
			handler = append(handler, hostfile.Member{Key: reg.Windows.Key, Value: commandLine(reg.Windows.Shell, bin, ev.Command, protocol)})
		}
	}
	if reg.Grouped {
		return []hostfile.Member{{Key: "hooks", Value: []any{handler}}}
	}
	return handler
}

// eventsOf is the object of a host's file that keys its events ("hooks",
// or the top level), nil when there is none, and its JSON pointer.
func eventsOf(reg *host.Registration, top *hostfile.Object) (*hostfile.Object, string, error) {
	if reg.TopLevelEvents {
		return top, "", nil
	}
	hooks, err := top.Object("hooks", "/hooks")
	return hooks, "/hooks", err
}

// hasOurs reports whether a host's file has any of loophook's hooks.
func hasOurs(reg *host.Registration, doc *hostfile.JSON, bin string) bool {
	hooks, _, _ := eventsOf(reg, doc.Top())
	if hooks == nil {
		return false
	}
	for _, ev := range reg.Events {
		list, _ := hooks.List(ev.Name, "")
		if len(handler.Find(reg, list, bin, ev.Command)) > 0 {
			return true
		}
	}
	return false
}

// trustHandlers lists loophook's handlers in a file as a host's Trust
// reads them.
func trustHandlers(reg *host.Registration, doc *hostfile.JSON, bin string) []host.Handler {
	hooks, _, _ := eventsOf(reg, doc.Top())
	if hooks == nil {
		return nil
	}
	var out []host.Handler
	for _, ev := range reg.Events {
		list, _ := hooks.List(ev.Name, "")
		for _, f := range handler.Find(reg, list, bin, ev.Command) {
			h := host.Handler{Event: ev.Name, Group: f.Group, Index: f.Index, GroupPlain: f.GroupPlain}
			for _, k := range f.Obj.Keys() {
				v, _ := f.Obj.Value(k)
				h.Members = append(h.Members, host.Member{Key: k, Value: v})
			}
			out = append(out, h)
		}
	}
	return out
}

// add merges loophook's hooks into a host's file, keeping everything else;
// what it adds goes after what is there. others are the host's other
// scopes' files, where a person's block cap may be.
func add(h host.Host, doc *hostfile.JSON, bin, scope string, others []scopeFile) (changes, notes []string, err error) {
	reg := h.Install
	top := doc.Top()
	// A committed file's loophook from PATH runs behind the guard
	// (committed.go), in sh; Windows's shells are the forms of windows.go.
	wrap := func(_ host.Event, line string) string { return line }
	if scope == committedScope && bin == pathProgram && !onWindows {
		wrap = func(ev host.Event, line string) string { return guarded(line, bin, ev, h.Tells) }
	}
	if reg.TopKeys != nil {
		for _, k := range top.Keys() {
			if !contains(reg.TopKeys, k) {
				return nil, nil, errTopKey(k, h.Title, reg.TopKeys)
			}
		}
	}
	if top.Len() == 0 && reg.NewFile != nil {
		for _, m := range reg.NewFile(scope) {
			top.Set(m.Key, m.Value)
		}
	}
	if reg.BlockCap != nil {
		c, n, err := addBlockCap(reg.BlockCap, top, others)
		if err != nil {
			return nil, nil, err
		}
		changes, notes = append(changes, c...), append(notes, n...)
	}
	hooks, pointer, err := eventsOf(reg, top)
	if err != nil {
		return nil, nil, err
	}
	for _, ev := range reg.Events {
		var list *hostfile.List
		if hooks != nil {
			if list, err = hooks.List(ev.Name, pointer+"/"+ev.Name); err != nil {
				return nil, nil, err
			}
		}
		shell := lineShell(reg)
		want := wrap(ev, commandLine(shell, bin, ev.Command, h.Name))
		// A line as install writes it is rewritten whole; a person's is
		// repointed, the rest kept as written.
		next := func(line string) (string, bool) {
			if shell == host.Sh && ownForm(line, bin, ev.Command) {
				c, _ := handler.Parse(line, bin, ev.Command)
				return want, c.Prog.Text != bin
			}
			return repointed(shell, line, bin, ev.Command, h.Name)
		}
		found := handler.Find(reg, list, bin, ev.Command)
		if len(found) == 0 {
			if hooks == nil {
				hooks = top.AddObject("hooks")
			}
			if list == nil {
				list = hooks.AddList(ev.Name)
			}
			list.Append(entry(reg, ev, bin, h.Name, wrap))
			changes = append(changes, changeAdded(ev.Name))
			continue
		}
		// Keep the person's own line, should an older install have added
		// a plain one beside it; else the one that needs no change.
		keep, custom, exact := found[0], -1, -1
		for i, f := range found {
			if next, _ := next(commandOf(f)); custom < 0 && next != want {
				custom = i
			}
			if exact < 0 && commandOf(f) == want {
				exact = i
			}
		}
		switch {
		case custom >= 0:
			keep = found[custom]
		case exact >= 0:
			keep = found[exact]
		}
		if cmd, moved := next(commandOf(keep)); cmd != commandOf(keep) {
			if keep.Args == nil || !setExec(keep, cmd, bin, ev.Command) {
				keep.Obj.Set(keep.Key, cmd)
			}
			if moved {
				changes = append(changes, changePointed(ev.Name, bin))
			} else {
				changes = append(changes, changeProtocol(h.Name, ev.Name))
			}
		}
		if keep.Args == nil && execForm(reg) && setExec(keep, commandOf(keep), bin, ev.Command) {
			changes = append(changes, changeExecForm(ev.Name))
		}
		if onWindows && reg.Windows.Key != "" {
			if c := setWindowsKey(reg, keep, bin, ev.Command, h.Name); c != "" {
				changes = append(changes, c)
			}
		}
		if len(found) > 1 {
			remove(reg, list, found, func(f handler.Found) bool { return f.Group != keep.Group || f.Index != keep.Index })
			changes = append(changes, changeCopies(len(found)-1, ev.Name))
		}
	}
	return changes, notes, nil
}

// setExec writes a handler in exec form from its command line as sh reads
// it, when the line is the program and its arguments alone (no cd, no
// environment before it); false, writing nothing, otherwise.
func setExec(h handler.Found, line, bin, command string) bool {
	c, ok := handler.Parse(line, bin, command)
	if !ok || c.Prog.Start != 0 {
		return false
	}
	var args []any
	for _, a := range c.Args {
		args = append(args, a.Text)
	}
	h.Obj.Set(h.Key, c.Prog.Text)
	h.Obj.Set("args", args)
	return true
}

// setWindowsKey gives a handler the member its host runs on Windows in
// place of its command line, loophook's line in that shell's form; the
// change, "" when there is none.
func setWindowsKey(reg *host.Registration, h handler.Found, bin, command, protocol string) string {
	key := reg.Windows.Key
	want := commandLine(reg.Windows.Shell, bin, command, protocol)
	if s, ok := h.Obj.String(key); ok {
		if want, _ = repointed(reg.Windows.Shell, s, bin, command, protocol); want == s {
			return ""
		}
	}
	h.Obj.Set(key, want)
	return changeWindowsKey(key, reg.CommandKeys[0])
}

// take takes loophook's hooks out of a host's file, and what else install
// added: what its record says it added, or, for an install made before
// records, the groups and lists the hooks leave empty and a block cap at
// loophook's value.
func take(h host.Host, doc *hostfile.JSON, bin, scope string, rec *Record) (changes, notes []string, err error) {
	reg := h.Install
	top := doc.Top()
	hooks, pointer, err := eventsOf(reg, top)
	if err != nil {
		return nil, nil, err
	}
	if hooks != nil {
		removedAny := false
		for _, ev := range reg.Events {
			list, err := hooks.List(ev.Name, pointer+"/"+ev.Name)
			if err != nil {
				return nil, nil, err
			}
			found := handler.Find(reg, list, bin, ev.Command)
			if len(found) == 0 {
				continue
			}
			removedAny = true
			remove(reg, list, found, func(handler.Found) bool { return true })
			if list.Len() == 0 && rec == nil {
				hooks.Remove(ev.Name)
			}
			changes = append(changes, changeRemoved(len(found), ev.Name))
		}
		if removedAny && hooks.Len() == 0 && !reg.TopLevelEvents && rec == nil {
			top.Remove("hooks")
		}
	}
	switch cap := reg.BlockCap; {
	case cap == nil:
	case rec == nil || slices.Contains(rec.Keys, capPointer(cap)):
		c, n, err := takeBlockCap(cap, top, rec == nil)
		if err != nil {
			return nil, nil, err
		}
		changes, notes = append(changes, c...), append(notes, n...)
	default:
		// The person's, set before install: left, whatever its value.
		if in, _ := capIn(cap, top); in != nil && in.Has(cap.Key) {
			notes = append(notes, noteCapTheirs(cap, in.Raw(cap.Key)))
		}
	}
	if rec != nil {
		takeRecorded(reg, top, scope, rec.Keys)
	}
	return changes, notes, nil
}

// takeRecorded takes out the members install recorded adding, the
// deepest first: an object or a list that is empty now, a new file's
// member still at install's value. The block cap is takeBlockCap's.
func takeRecorded(reg *host.Registration, top *hostfile.Object, scope string, keys []string) {
	newFile := map[string]any{}
	if reg.NewFile != nil {
		for _, m := range reg.NewFile(scope) {
			newFile["/"+escapePointer(m.Key)] = m.Value
		}
	}
	keys = slices.Clone(keys)
	slices.SortStableFunc(keys, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, k := range keys {
		parts := strings.Split(k, "/")[1:]
		in := top
		for _, p := range parts[:len(parts)-1] {
			if in, _ = in.Object(unescapePointer(p), ""); in == nil {
				break
			}
		}
		if in == nil {
			continue
		}
		name := unescapePointer(parts[len(parts)-1])
		v, ok := in.Value(name)
		if !ok {
			continue
		}
		if _, composite := v.(hostfile.Composite); composite {
			o, _ := in.Object(name, "")
			l, _ := in.List(name, "")
			if o != nil && o.Len() == 0 || l != nil && l.Len() == 0 {
				in.Remove(name)
			}
			continue
		}
		if want, ok := newFile[k]; ok && sameValue(v, want) {
			in.Remove(name)
		}
	}
}

// sameValue reports whether v, as hostfile reads a value, is w, as a
// host's row writes it.
func sameValue(v, w any) bool {
	if n, ok := w.(int); ok {
		return v == int64(n)
	}
	return v == w
}

// onlyNewFile reports whether what is left of a file after an uninstall is
// no more than install starts a new file with: then install created it,
// and it goes.
func onlyNewFile(reg *host.Registration, doc *hostfile.JSON, scope string, data []byte) bool {
	top := doc.Top()
	if doc.HasComments() || len(data) == 0 {
		return false
	}
	var members []host.Member
	if reg.NewFile != nil {
		members = reg.NewFile(scope)
	}
	if top.Len() != len(members) {
		return false
	}
	for _, m := range members {
		if v, _ := top.Value(m.Key); !sameValue(v, m.Value) {
			return false
		}
	}
	return true
}

// The block cap: loophook's only while it has loophook's value. A person's
// own value, here or in another scope's file, is kept, since the host
// would take loophook's in a scope above theirs over it.

// capIn is the object of a file that holds the block cap: "env", nil when
// there is none, or the top level.
func capIn(cap *host.Setting, top *hostfile.Object) (*hostfile.Object, error) {
	if cap.Top {
		return top, nil
	}
	return top.Object("env", "/env")
}

// capPointer is the block cap's JSON pointer in a file.
func capPointer(cap *host.Setting) string {
	if cap.Top {
		return "/" + escapePointer(cap.Key)
	}
	return "/env/" + escapePointer(cap.Key)
}

// capIs reports whether v, a value as hostfile reads it, is loophook's.
func capIs(cap *host.Setting, v any) bool {
	if cap.Top {
		n, err := strconv.ParseInt(cap.Value, 10, 64)
		return err == nil && v == n
	}
	return v == cap.Value
}

func addBlockCap(cap *host.Setting, top *hostfile.Object, others []scopeFile) (changes, notes []string, err error) {
	in, err := capIn(cap, top)
	if err != nil {
		return nil, nil, err
	}
	var v any
	var ok bool
	if in != nil {
		v, ok = in.Value(cap.Key)
	}
	switch {
	case !ok:
		if o, raw := personsBlockCap(cap, others); o != nil {
			notes = append(notes, noteCapSetElsewhere(cap, raw, shown(o.path), o.scope))
			break
		}
		if in == nil {
			in = top.AddObject("env")
		}
		if cap.Top {
			n, err := strconv.Atoi(cap.Value)
			if err != nil {
				return nil, nil, err
			}
			in.Set(cap.Key, n)
		} else {
			in.Set(cap.Key, cap.Value)
		}
		changes = append(changes, changeCapSet(cap))
	case !capIs(cap, v):
		notes = append(notes, noteCapKept(cap, in.Raw(cap.Key)))
	}
	return changes, notes, nil
}

// takeBlockCap takes out the block cap while it is loophook's, and the
// env it leaves empty when emptyEnv (an install without a record).
func takeBlockCap(cap *host.Setting, top *hostfile.Object, emptyEnv bool) (changes, notes []string, err error) {
	in, err := capIn(cap, top)
	if err != nil || in == nil {
		return nil, nil, err
	}
	switch v, ok := in.Value(cap.Key); {
	case ok && capIs(cap, v):
		in.Remove(cap.Key)
		changes = append(changes, changeCapRemoved(cap))
		if in.Len() == 0 && !cap.Top && emptyEnv {
			top.Remove("env")
		}
	case ok:
		notes = append(notes, noteCapLeft(cap, in.Raw(cap.Key)))
	}
	return changes, notes, nil
}

// personsBlockCap is the first of others that sets the block cap to a
// value that is not loophook's, and that value as written.
func personsBlockCap(cap *host.Setting, others []scopeFile) (*scopeFile, string) {
	for i, o := range others {
		in, _ := capIn(cap, o.doc.Top())
		if in == nil {
			continue
		}
		if v, ok := in.Value(cap.Key); ok && !capIs(cap, v) {
			return &others[i], in.Raw(cap.Key)
		}
	}
	return nil, ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
