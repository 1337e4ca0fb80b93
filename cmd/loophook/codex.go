package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/loophook/loophook/hook/host"
)

// Codex runs a project's hooks only in a trusted project, and any hook only
// when config.toml records its hash under its position
// (codex-cli/PROTOCOL.md §2): installing writes both, uninstalling takes
// out the hashes of the hooks it removed.

// codexTrust is the edit of $CODEX_HOME/config.toml that goes with a change
// of the hooks file.
func codexTrust(install bool, scope, root, file string, before, after *object, bin string) (*fileEdit, error) {
	home, err := codexHome()
	if err != nil {
		return nil, fail("", "find the home directory: %v", err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	var set []tomlTable
	var drop []string
	if install {
		if scope == "project" {
			set = append(set, tomlTable{"projects." + tomlQuote(root), "trust_level", `"trusted"`, "trusted the project " + root})
		}
		for _, t := range codexLoophookHooks(after, bin) {
			if t.hash == "" {
				continue
			}
			key := host.CodexTrustKey(abs, host.CodexEventLabel(t.event), t.group, t.handler)
			set = append(set, tomlTable{"hooks.state." + tomlQuote(key), "trusted_hash", tomlQuote(t.hash), "trusted the " + t.event + " hook"})
		}
	} else {
		for _, t := range codexLoophookHooks(before, bin) {
			drop = append(drop, "hooks.state."+tomlQuote(host.CodexTrustKey(abs, host.CodexEventLabel(t.event), t.group, t.handler)))
		}
	}
	return &fileEdit{
		path: filepath.Join(home, "config.toml"),
		change: func(data []byte) ([]byte, []string, error) {
			return editTOMLTables(data, set, drop)
		},
	}, nil
}

// codexHook is one of loophook's handlers in a Codex hooks document: its
// event, its position, and the hash Codex would record for it, "" when it
// has more than loophook writes (a matcher, async, a status message) and
// only Codex's own review can tell its hash.
type codexHook struct {
	event          string
	group, handler int
	hash           string
}

func codexLoophookHooks(doc *object, bin string) []codexHook {
	var found []codexHook
	v, _ := doc.get("hooks")
	hooks, _ := v.(*object)
	if hooks == nil {
		return nil
	}
	shape := codexShape
	for _, ev := range shape.events {
		v, _ := hooks.get(ev.event)
		groups, _ := v.([]any)
		ours := loophookHandler(bin, ev.command)
		for g, x := range groups {
			group, _ := x.(*object)
			if group == nil {
				continue
			}
			v, _ := group.get("hooks")
			list, _ := v.([]any)
			for i, y := range list {
				h, _ := y.(*object)
				if h == nil || len(findFlat([]any{h}, shape.keys, ours)) == 0 {
					continue
				}
				found = append(found, codexHook{ev.event, g, i, codexHash(ev.event, group, h)})
			}
		}
	}
	return found
}

// codexHash is host.CodexHookHash of a plain handler: type, command and an
// integer timeout, in a group with nothing but its hooks.
func codexHash(event string, group, h *object) string {
	if len(group.members) != 1 {
		return ""
	}
	var command string
	timeout := 0
	for _, m := range h.members {
		switch m.key {
		case "type":
			if m.value != "command" {
				return ""
			}
		case "command":
			command, _ = m.value.(string)
		case "timeout":
			n, ok := m.value.(json.Number)
			t, err := n.Int64()
			if !ok || err != nil || t <= 0 {
				return ""
			}
			timeout = int(t)
		default:
			return ""
		}
	}
	return host.CodexHookHash(host.CodexEventLabel(event), command, timeout)
}

// tomlTable is a table header ([name]), the one key install sets in it, its
// value as written, and what to tell the person when it changes.
type tomlTable struct {
	name, key, value, change string
}

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlLine is one line of a TOML file: its text, and the table header it
// opens, if it is one.
type tomlLine struct {
	text   string
	header string
}

// editTOMLTables sets one key in each of set's tables and removes drop's
// tables, line by line, keeping every other line and comment as it was. A
// table is found by its header only; a file that defines the same tables
// some other way (dotted keys, inline tables) is refused, since adding a
// header then would make it invalid.
func editTOMLTables(data []byte, set []tomlTable, drop []string) ([]byte, []string, error) {
	newline := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		newline = "\r\n"
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	var lines []tomlLine
	if text != "" {
		inString := ""
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			header := ""
			if inString == "" {
				header = tomlHeader(l)
				if err := tomlDefinesElsewhere(l, lines); err != nil {
					return nil, nil, err
				}
			}
			for _, q := range []string{`"""`, `'''`} {
				if strings.Count(l, q)%2 == 1 && (inString == "" || inString == q) {
					if inString == "" {
						inString = q
					} else {
						inString = ""
					}
				}
			}
			lines = append(lines, tomlLine{l, header})
		}
	}
	var changes []string
	for _, name := range drop {
		start, end := tomlTableLines(lines, name)
		if start < 0 {
			continue
		}
		for end < len(lines) && start > 0 && strings.TrimSpace(lines[start-1].text) == "" {
			start-- // the blank line before it
		}
		lines = append(lines[:start:start], lines[end:]...)
		changes = append(changes, "removed ["+name+"]")
	}
	for _, t := range set {
		want := t.key + " = " + t.value
		start, end := tomlTableLines(lines, t.name)
		if start < 0 {
			if len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1].text) != "" {
				lines = append(lines, tomlLine{})
			}
			lines = append(lines, tomlLine{"[" + t.name + "]", t.name}, tomlLine{text: want})
			changes = append(changes, t.change)
			continue
		}
		at := -1
		for i := start + 1; i < end; i++ {
			if k, _, ok := strings.Cut(lines[i].text, "="); ok && strings.TrimSpace(k) == t.key {
				at = i
				break
			}
		}
		switch {
		case at < 0:
			lines = append(lines[:start+1], append([]tomlLine{{text: want}}, lines[start+1:]...)...)
		case strings.TrimSpace(strings.TrimSuffix(lines[at].text, tomlTrailingComment(lines[at].text))) == want:
			continue
		default:
			lines[at].text = want + tomlTrailingComment(lines[at].text)
		}
		changes = append(changes, t.change)
	}
	if len(changes) == 0 {
		return data, nil, nil
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.text + newline)
	}
	return []byte(b.String()), changes, nil
}

// tomlTrailingComment is the comment after a key's string value, with the
// blanks before it, "" when there is none.
func tomlTrailingComment(line string) string {
	_, value, _ := strings.Cut(line, "=")
	value = strings.TrimSpace(value)
	if len(value) < 2 || value[0] != '"' {
		return ""
	}
	end := strings.IndexByte(value[1:], '"')
	if end < 0 {
		return ""
	}
	rest := value[end+2:]
	if c := strings.TrimSpace(rest); strings.HasPrefix(c, "#") {
		return line[len(line)-len(rest):]
	}
	return ""
}

// tomlHeader is the name of the table a line opens, as written between its
// brackets, "" when it opens none. [[arrays]] are headers too.
func tomlHeader(line string) string {
	l := strings.TrimSpace(line)
	if !strings.HasPrefix(l, "[") {
		return ""
	}
	if i := strings.LastIndexByte(l, ']'); i > 0 {
		if c := strings.TrimSpace(l[i+1:]); c == "" || strings.HasPrefix(c, "#") {
			return strings.TrimSpace(strings.Trim(l[:i+1], "[]"))
		}
	}
	return ""
}

// tomlTableLines is where a table is: its header line, and the line after
// its last; -1 when there is none.
func tomlTableLines(lines []tomlLine, name string) (start, end int) {
	start = -1
	for i, l := range lines {
		if start < 0 && l.header == name {
			start = i
			continue
		}
		if start >= 0 && l.header != "" {
			return start, i
		}
	}
	return start, len(lines)
}

// tomlDefinesElsewhere refuses a key line that defines projects or
// hooks.state without a table header of its own: projects = …, or
// hooks.state… at the top, state = … in [hooks], and so on.
func tomlDefinesElsewhere(line string, before []tomlLine) error {
	k, _, ok := strings.Cut(line, "=")
	if !ok || tomlHeader(line) != "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
		return nil
	}
	key := strings.ReplaceAll(strings.TrimSpace(k), " ", "")
	table := ""
	for i := len(before) - 1; i >= 0; i-- {
		if before[i].header != "" {
			table = before[i].header
			break
		}
	}
	full := key
	if table != "" {
		full = strings.ReplaceAll(table, " ", "") + "." + key
	}
	if full == "hooks" {
		return errTOMLElsewhere("hooks", line)
	}
	for _, p := range []string{"projects", "hooks.state"} {
		if (full == p || strings.HasPrefix(full, p+".")) && !strings.HasPrefix(table, p+".") {
			return errTOMLElsewhere(p, line)
		}
	}
	return nil
}
