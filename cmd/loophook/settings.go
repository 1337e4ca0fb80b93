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
	return shellQuote(bin) + " " + command + " --protocol claude"
}

// installHooks merges loophook's hooks and the block cap into a Claude Code
// settings document, keeping everything else. changes says what it changed,
// in a person's words, and notes what it chose to leave.
func installHooks(doc *object, bin string) (changes, notes []string, err error) {
	env, err := childObject(doc, "env", "/env")
	if err != nil {
		return nil, nil, err
	}
	switch v, ok := env.get(blockCapKey); {
	case !ok:
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
		keep := found[0]
		for _, f := range found {
			if f.command() == want {
				keep = f
				break
			}
		}
		if cmd := repointed(keep.command(), bin, h.command); cmd != keep.command() {
			keep.handler.set("command", cmd)
			changes = append(changes, fmt.Sprintf("pointed the %s hook at %s", h.event, bin))
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
func uninstallHooks(doc *object, bin string) (changes, notes []string, err error) {
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
			groups = removeHandlers(groups, func(o *object) bool { return containsHandler(found, o) })
			if len(groups) == 0 {
				hooks.remove(h.event)
			} else {
				hooks.set(h.event, groups)
			}
			if len(found) == 1 {
				changes = append(changes, "removed the "+h.event+" hook")
			} else {
				changes = append(changes, fmt.Sprintf("removed %d %s hooks", len(found), h.event))
			}
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
	want := hookCommand(bin, command)
	return func(cmd string) bool { return cmd == want || isLoophook(cmd, command) }
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

// handler is one {"type": "command", "command": ...} in a matcher group.
type handler struct {
	handler *object
}

func (h handler) command() string {
	v, _ := h.handler.get("command")
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
		for _, x := range list {
			h, ok := x.(*object)
			if !ok {
				continue
			}
			if cmd, ok := h.get("command"); ok {
				if s, ok := cmd.(string); ok && ours(s) {
					found = append(found, handler{h})
				}
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

// isLoophook reports whether a hook's command runs a program named loophook
// with command as its first argument, wherever it was installed from.
func isLoophook(cmd, command string) bool {
	prog, rest, ok := splitProgram(strings.TrimSpace(cmd))
	if !ok {
		return false
	}
	base := prog[strings.LastIndexAny(prog, `/\`)+1:]
	if base != "loophook" && base != "loophook.exe" {
		return false
	}
	args := strings.Fields(rest)
	return len(args) > 0 && args[0] == command
}

// repointed is a loophook hook's command run by bin. Flags a person added
// after --protocol claude are kept; a command without --protocol claude,
// which Claude Code would not obey, is replaced whole.
func repointed(cmd, bin, command string) string {
	if _, rest, ok := splitProgram(strings.TrimSpace(cmd)); ok && strings.HasPrefix(rest, " "+command+" --protocol claude") {
		return shellQuote(bin) + rest
	}
	return hookCommand(bin, command)
}

// splitProgram splits a shell command line into its first word, unquoted,
// and the rest as written.
func splitProgram(cmd string) (prog, rest string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(cmd); i++ {
		switch c := cmd[i]; c {
		case ' ', '\t':
			return b.String(), cmd[i:], b.Len() > 0
		case '\'':
			end := strings.IndexByte(cmd[i+1:], '\'')
			if end < 0 {
				return "", "", false
			}
			b.WriteString(cmd[i+1 : i+1+end])
			i += end + 1
		case '"':
			i++
			for ; i < len(cmd) && cmd[i] != '"'; i++ {
				if cmd[i] == '\\' && i+1 < len(cmd) && strings.IndexByte("\"\\$`", cmd[i+1]) >= 0 {
					i++
				}
				b.WriteByte(cmd[i])
			}
			if i == len(cmd) {
				return "", "", false
			}
		case '\\':
			if i+1 < len(cmd) {
				i++
				b.WriteByte(cmd[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), "", b.Len() > 0
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
