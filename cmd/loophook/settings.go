package main

import (
	"fmt"
	"strings"
)

// hookEvents are the Claude Code hook events loophook answers, each with the
// loophook command that answers it.
var hookEvents = []struct{ event, command string }{
	{"Stop", "stop"},
	{"SessionStart", "session-start"},
}

// blockCapKey raises Claude Code's cap on consecutive Stop blocks (8 by
// default) so that the loop's own limits end it; blockCap is loophook's value.
const (
	blockCapKey = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"
	blockCap    = "50"
)

// hookCommand is the command line Claude Code runs for one of loophook's hooks.
func hookCommand(bin, command string) string {
	return protocolCommand(bin, command, "claude")
}

// protocolCommand is the command line a host runs for one of loophook's
// hooks, speaking that host's protocol.
func protocolCommand(bin, command, protocol string) string {
	return shellQuote(bin) + " " + command + " --protocol " + protocol
}

// installHooks merges loophook's hooks and the block cap into a Claude Code
// settings document, keeping everything else. changes says what it changed,
// in a person's words, and notes what it chose to leave.
//
// The block cap is loophook's only while it is "50": a person's own value,
// here or in another scope's file (others), is kept, since Claude Code would
// take a "50" in a scope above theirs over it.
func installHooks(doc *object, bin string, others []scopeSettings) (changes, notes []string, err error) {
	env, err := childObject(doc, "env", "/env")
	if err != nil {
		return nil, nil, err
	}
	switch v, ok := env.get(blockCapKey); {
	case !ok:
		if o, v := personsBlockCap(others); o != nil {
			notes = append(notes, noteCapSetElsewhere(strings.TrimSpace(string(encode(v))), shown(o.path), o.scope))
			break
		}
		env.set(blockCapKey, blockCap)
		changes = append(changes, fmt.Sprintf("set env.%s to %q", blockCapKey, blockCap))
	case v != blockCap:
		notes = append(notes, fmt.Sprintf("kept env.%s at %s, set before (loophook's is %q)", blockCapKey, strings.TrimSpace(string(encode(v))), blockCap))
	}
	if len(env.members) > 0 {
		doc.set("env", env)
	}

	hooks, err := childObject(doc, "hooks", "/hooks")
	if err != nil {
		return nil, nil, err
	}
	for _, h := range hookEvents {
		groups, err := childList(hooks, h.event, "/hooks/"+h.event)
		if err != nil {
			return nil, nil, err
		}
		want := hookCommand(bin, h.command)
		found := findHandlers(groups, loophookHandler(bin, h.command))
		if len(found) == 0 {
			handler := &object{}
			handler.set("type", "command")
			handler.set("command", want)
			group := &object{}
			group.set("hooks", []any{handler})
			hooks.set(h.event, append(groups, group))
			changes = append(changes, "added the "+h.event+" hook")
			continue
		}
		// Keep the person's own line, should an older install have added
		// a plain one beside it; else the one that needs no change.
		keep, custom, exact := found[0], -1, -1
		for i, f := range found {
			if next, _ := repointed(f.command(), bin, h.command); custom < 0 && next != want {
				custom = i
			}
			if exact < 0 && f.command() == want {
				exact = i
			}
		}
		switch {
		case custom >= 0:
			keep = found[custom]
		case exact >= 0:
			keep = found[exact]
		}
		if cmd, moved := repointed(keep.command(), bin, h.command); cmd != keep.command() {
			keep.handler.set("command", cmd)
			if moved {
				changes = append(changes, fmt.Sprintf("pointed the %s hook at %s", h.event, bin))
			} else {
				changes = append(changes, changeProtocol(h.event))
			}
		}
		if len(found) > 1 {
			groups = removeHandlers(groups, func(o *object) bool { return o != keep.handler && containsHandler(found, o) })
			hooks.set(h.event, groups)
			changes = append(changes, fmt.Sprintf("removed %s of the %s hook", count(len(found)-1, "copy", "copies"), h.event))
		}
	}
	doc.set("hooks", hooks)
	return changes, notes, nil
}

// uninstallHooks takes out of a settings document what installHooks put in:
// loophook's handlers, the groups and lists they leave empty, and the block
// cap while it still has loophook's value.
func uninstallHooks(doc *object, bin string, _ []scopeSettings) (changes, notes []string, err error) {
	if v, ok := doc.get("hooks"); ok {
		hooks, ok := v.(*object)
		if !ok {
			return nil, nil, fmt.Errorf("/hooks is not an object")
		}
		removedAny := false
		for _, h := range hookEvents {
			groups, err := childList(hooks, h.event, "/hooks/"+h.event)
			if err != nil {
				return nil, nil, err
			}
			found := findHandlers(groups, loophookHandler(bin, h.command))
			if len(found) == 0 {
				continue
			}
			removedAny = true
			changes = append(changes, dropFound(hooks, h.event, groups, found, removeHandlers))
		}
		if removedAny && len(hooks.members) == 0 {
			doc.remove("hooks")
		}
	}
	if v, ok := doc.get("env"); ok {
		env, ok := v.(*object)
		if !ok {
			return nil, nil, fmt.Errorf("/env is not an object")
		}
		switch v, ok := env.get(blockCapKey); {
		case ok && v == blockCap:
			env.remove(blockCapKey)
			changes = append(changes, "removed env."+blockCapKey)
			if len(env.members) == 0 {
				doc.remove("env")
			}
		case ok:
			notes = append(notes, fmt.Sprintf("left env.%s at %s: not loophook's value", blockCapKey, strings.TrimSpace(string(encode(v)))))
		}
	}
	return changes, notes, nil
}

// personsBlockCap is the first of others that sets the block cap to a value
// that is not loophook's, and that value.
func personsBlockCap(others []scopeSettings) (*scopeSettings, any) {
	for i, o := range others {
		env, _ := o.doc.get("env")
		if env, ok := env.(*object); ok {
			if v, ok := env.get(blockCapKey); ok && v != blockCap {
				return &others[i], v
			}
		}
	}
	return nil, nil
}

// hasLoophookHooks reports whether a settings document has any of
// loophook's hooks.
func hasLoophookHooks(doc *object, bin string) bool {
	v, _ := doc.get("hooks")
	hooks, ok := v.(*object)
	if !ok {
		return false
	}
	for _, h := range hookEvents {
		v, _ := hooks.get(h.event)
		groups, _ := v.([]any)
		if len(findHandlers(groups, loophookHandler(bin, h.command))) > 0 {
			return true
		}
	}
	return false
}

// loophookHandler recognises the command of loophook's handler for command:
// the one bin would be installed as, or any loophook's.
func loophookHandler(bin, command string) func(string) bool {
	return func(cmd string) bool {
		_, ok := parseCall(cmd, bin, command)
		return ok
	}
}

// childObject returns the object under key, or a new empty one, which the
// caller adds only if it puts something in it.
func childObject(parent *object, key, pointer string) (*object, error) {
	v, ok := parent.get(key)
	if !ok {
		return &object{}, nil
	}
	o, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("%s is not an object", pointer)
	}
	return o, nil
}

// childList returns the list under key, nil when there is none.
func childList(parent *object, key, pointer string) ([]any, error) {
	v, ok := parent.get(key)
	if !ok {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not an array", pointer)
	}
	return list, nil
}

// handler is one {"type": "command", "command": ...} in a matcher group;
// key is the member that holds its command line.
type handler struct {
	handler *object
	key     string
}

func (h handler) command() string {
	v, _ := h.handler.get(h.key)
	s, _ := v.(string)
	return s
}

// findHandlers lists the handlers, in every matcher group of an event's
// list, whose command is one that ours says is loophook's. Anything of
// another shape is someone else's and is skipped.
func findHandlers(groups []any, ours func(command string) bool) []handler {
	var found []handler
	for _, g := range groups {
		group, ok := g.(*object)
		if !ok {
			continue
		}
		v, _ := group.get("hooks")
		list, _ := v.([]any)
		found = append(found, findFlat(list, []string{"command"}, ours)...)
	}
	return found
}

// findFlat lists the handlers of a list of handlers whose command, under
// the first of keys they have, is one that ours says is loophook's.
func findFlat(list []any, keys []string, ours func(command string) bool) []handler {
	var found []handler
	for _, x := range list {
		h, ok := x.(*object)
		if !ok {
			continue
		}
		for _, key := range keys {
			if cmd, ok := h.get(key); ok {
				if s, ok := cmd.(string); ok && ours(s) {
					found = append(found, handler{h, key})
				}
				break
			}
		}
	}
	return found
}

func containsHandler(found []handler, o *object) bool {
	for _, f := range found {
		if f.handler == o {
			return true
		}
	}
	return false
}

// removeHandlers drops the handlers drop picks, and the matcher groups that
// this leaves with no handler; groups that were empty already stay.
func removeHandlers(groups []any, drop func(*object) bool) []any {
	kept := []any{}
	for _, g := range groups {
		group, ok := g.(*object)
		if !ok {
			kept = append(kept, g)
			continue
		}
		v, _ := group.get("hooks")
		list, ok := v.([]any)
		if !ok {
			kept = append(kept, g)
			continue
		}
		left := []any{}
		for _, x := range list {
			if h, ok := x.(*object); ok && drop(h) {
				continue
			}
			left = append(left, x)
		}
		if len(left) == len(list) {
			kept = append(kept, g)
			continue
		}
		if len(left) == 0 {
			continue
		}
		group.set("hooks", left)
		kept = append(kept, group)
	}
	return kept
}

// call is a hook's command line that runs loophook: the words before the
// program (environment assignments, env, exec), the program, and its
// arguments, the first of which is loophook's command.
type call struct {
	line string
	prog word
	args []word
}

// parseCall takes apart a command line that runs loophook's command: a
// program named loophook, or bin, after any environment assignments, env or
// exec. A person may have written it any of these ways.
func parseCall(line, bin, command string) (call, bool) {
	line = strings.TrimSpace(line)
	words, ok := shellWords(line)
	if !ok {
		return call{}, false
	}
	i := 0
	for i < len(words) && (isAssignment(line[words[i].start:words[i].end]) || words[i].text == "env" || words[i].text == "exec") {
		i++
	}
	if i+1 >= len(words) || words[i+1].text != command {
		return call{}, false
	}
	prog := words[i].text
	base := prog[strings.LastIndexAny(prog, `/\`)+1:]
	if base != "loophook" && base != "loophook.exe" && (bin == "" || prog != bin) {
		return call{}, false
	}
	return call{line, words[i], words[i+1:]}, true
}

// isAssignment reports whether a word, as written, sets an environment
// variable for the command after it: NAME=value.
func isAssignment(raw string) bool {
	name, _, ok := strings.Cut(raw, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		digit := '0' <= c && c <= '9'
		if !letter && (i == 0 || !digit) {
			return false
		}
	}
	return true
}

// repointed is a loophook hook's command run by bin with --protocol claude:
// everything else a person wrote (an environment prefix, flags, their
// order) stays as written; a --protocol of another value is set to claude,
// and a missing one added after the command. moved says whether the
// program changed. A line that is not loophook's becomes loophook's plain
// one.
func repointed(line, bin, command string) (cmd string, moved bool) {
	return repointedTo(line, bin, command, "claude")
}

// repointedTo is repointed for any host's protocol.
func repointedTo(line, bin, command, protocol string) (cmd string, moved bool) {
	c, ok := parseCall(line, bin, command)
	if !ok {
		return protocolCommand(bin, command, protocol), true
	}
	var b strings.Builder
	b.WriteString(c.line[:c.prog.start])
	b.WriteString(shellQuote(bin))
	at := c.prog.end
	hasProtocol := false
	for j := 1; j < len(c.args); j++ {
		a := c.args[j]
		name, value, hasValue := strings.Cut(a.text, "=")
		if name != "--protocol" && name != "-protocol" {
			continue
		}
		hasProtocol = true
		switch {
		case hasValue && value != protocol:
			b.WriteString(c.line[at:a.start] + name + "=" + protocol)
			at = a.end
		case !hasValue && j+1 == len(c.args):
			b.WriteString(c.line[at:a.end] + " " + protocol)
			at = a.end
		case !hasValue && c.args[j+1].text != protocol:
			b.WriteString(c.line[at:c.args[j+1].start] + protocol)
			at = c.args[j+1].end
			j++
		}
	}
	if !hasProtocol {
		b.WriteString(c.line[at:c.args[0].end] + " --protocol " + protocol)
		at = c.args[0].end
	}
	b.WriteString(c.line[at:])
	return b.String(), c.prog.text != bin
}

// word is one word of a shell command line: where it is as written, and
// what it says once its quotes are taken off.
type word struct {
	start, end int
	text       string
}

// shellWords splits a command line into words the way sh does before it
// expands them; ok is false when a quote is left open.
func shellWords(line string) (words []word, ok bool) {
	var b strings.Builder
	start := -1
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == ' ' || c == '\t' || c == '\n' {
			if start >= 0 {
				words = append(words, word{start, i, b.String()})
				b.Reset()
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
		switch c {
		case '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, false
			}
			b.WriteString(line[i+1 : i+1+end])
			i += end + 1
		case '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
					i++
				}
				b.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, false
			}
		case '\\':
			if i+1 < len(line) {
				i++
				b.WriteByte(line[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	if start >= 0 {
		words = append(words, word{start, len(line), b.String()})
	}
	return words, true
}

// shellSafe are the bytes a word needs no quotes for. (A regular
// expression would be compiled at the start of every hook call.)
const shellSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-"

// shellQuote quotes a path for the shell Claude Code runs hook commands in.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, shellSafe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dropFound removes the found handlers from event's list in hooks (the
// list goes when nothing is left in it) and says what it removed.
func dropFound(hooks *object, event string, list []any, found []handler, remove func([]any, func(*object) bool) []any) string {
	if list = remove(list, func(o *object) bool { return containsHandler(found, o) }); len(list) == 0 {
		hooks.remove(event)
	} else {
		hooks.set(event, list)
	}
	if len(found) == 1 {
		return "removed the " + event + " hook"
	}
	return fmt.Sprintf("removed %d %s hooks", len(found), event)
}
