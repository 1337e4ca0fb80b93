package hostfile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// A TOMLKey is one string key set in a table: the keys of the table's name
// ([projects."/src/a"] is projects, /src/a), the key, its value, and what
// to tell the person when it changes. Marked keys carry a comment saying
// that loophook install added them, and only such a key is withdrawn.
type TOMLKey struct {
	Table              []string
	Key, Value, Change string
	Marked             bool
}

// A TOMLEdit is what changes in a TOML file: keys set, tables dropped,
// and marked keys withdrawn (with their table, when nothing else is left
// in it).
type TOMLEdit struct {
	Set      []TOMLKey
	Drop     [][]string
	Withdraw []TOMLKey
}

// markComment ends the line of a key that loophook install added.
const markComment = " # added by loophook install"

// tomlLine is one line of a TOML file: its text, and the table header it
// opens, if it is one.
type tomlLine struct {
	text   string
	header string
}

// EditTOML applies e to a TOML file, line by line, keeping every other
// line and comment as it was, and checks the result with a TOML parser
// before it is returned: it must parse, and hold every key set with its
// value and none of the tables dropped. A table is found by its header
// only; a file that defines the same tables some other way (dotted keys,
// inline tables) is refused, since adding a header then would make it
// invalid.
func EditTOML(data []byte, e TOMLEdit) (out []byte, changes []string, err error) {
	newline := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		newline = "\r\n"
	}
	lines, err := tomlLines(data, e)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range e.Drop {
		name := tomlName(t)
		var removed bool
		if lines, removed = dropTable(lines, name); removed {
			changes = append(changes, "removed ["+name+"]")
		}
	}
	for _, k := range e.Withdraw {
		name := tomlName(k.Table)
		start, end := tableLines(lines, name)
		at := keyLine(lines, start, end, k.Key)
		if at < 0 || !strings.HasSuffix(lines[at].text, markComment) {
			continue
		}
		lines = slices.Delete(lines, at, at+1)
		if start, end = tableLines(lines, name); end == start+1 || onlyBlank(lines[start+1:end]) {
			lines, _ = dropTable(lines, name)
		}
		changes = append(changes, k.Change)
	}
	for _, k := range e.Set {
		name := tomlName(k.Table)
		want := k.Key + " = " + quote(k.Value)
		if k.Marked {
			want += markComment
		}
		start, end := tableLines(lines, name)
		if start < 0 {
			if len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1].text) != "" {
				lines = append(lines, tomlLine{})
			}
			lines = append(lines, tomlLine{"[" + name + "]", name}, tomlLine{text: want})
			changes = append(changes, k.Change)
			continue
		}
		switch at := keyLine(lines, start, end, k.Key); {
		case at < 0:
			lines = slices.Insert(lines, start+1, tomlLine{text: want})
		case valueOf(lines[at].text) == quote(k.Value):
			continue
		default:
			lines[at].text = k.Key + " = " + quote(k.Value) + trailingComment(lines[at].text)
		}
		changes = append(changes, k.Change)
	}
	if len(changes) == 0 {
		return data, nil, nil
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.text + newline)
	}
	out = []byte(b.String())
	if err := checkTOML(out, e); err != nil {
		return nil, nil, err
	}
	return out, changes, nil
}

// tomlLines splits a TOML file into lines, refusing one that defines the
// tables e touches without a header.
func tomlLines(data []byte, e TOMLEdit) ([]tomlLine, error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	if text == "" {
		return nil, nil
	}
	tables := slices.Clone(e.Drop)
	for _, k := range append(slices.Clone(e.Set), e.Withdraw...) {
		tables = append(tables, k.Table)
	}
	var lines []tomlLine
	inString := ""
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		header := ""
		if inString == "" {
			header = tomlHeader(l)
			if err := definesElsewhere(l, lines, tables); err != nil {
				return nil, err
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
	return lines, nil
}

// checkTOML parses out and finds in it what e set and not what it dropped.
func checkTOML(out []byte, e TOMLEdit) error {
	var doc map[string]any
	if err := toml.Unmarshal(out, &doc); err != nil {
		return fmt.Errorf(errTOMLInvalid, err)
	}
	lookup := func(path []string) (any, bool) {
		var v any = doc
		for _, k := range path {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[k]; !ok {
				return nil, false
			}
		}
		return v, true
	}
	for _, k := range e.Set {
		if v, _ := lookup(append(slices.Clone(k.Table), k.Key)); v != k.Value {
			return fmt.Errorf(errTOMLLost, k.Key, tomlName(k.Table))
		}
	}
	for _, t := range e.Drop {
		if _, ok := lookup(t); ok {
			return fmt.Errorf(errTOMLKept, tomlName(t))
		}
	}
	return nil
}

// tomlName is a table's name as loophook writes it between brackets.
func tomlName(keys []string) string {
	var parts []string
	for _, k := range keys {
		if k != "" && strings.Trim(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == "" {
			parts = append(parts, k)
		} else {
			parts = append(parts, quote(k))
		}
	}
	return strings.Join(parts, ".")
}

// quote writes s as a TOML basic string.
func quote(s string) string {
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

// dropTable removes the table name, with the blank line before it.
func dropTable(lines []tomlLine, name string) ([]tomlLine, bool) {
	start, end := tableLines(lines, name)
	if start < 0 {
		return lines, false
	}
	for end < len(lines) && start > 0 && strings.TrimSpace(lines[start-1].text) == "" {
		start-- // the blank line before it
	}
	if end == len(lines) && start > 0 && strings.TrimSpace(lines[start-1].text) == "" {
		start--
	}
	return append(lines[:start:start], lines[end:]...), true
}

// keyLine is the line of key in the table's lines, -1 when there is none.
func keyLine(lines []tomlLine, start, end int, key string) int {
	if start < 0 {
		return -1
	}
	for i := start + 1; i < end; i++ {
		if k, _, ok := strings.Cut(lines[i].text, "="); ok && strings.TrimSpace(k) == key {
			return i
		}
	}
	return -1
}

func onlyBlank(lines []tomlLine) bool {
	for _, l := range lines {
		if strings.TrimSpace(l.text) != "" {
			return false
		}
	}
	return true
}

// valueOf is a key line's string value as written, without a comment.
func valueOf(line string) string {
	return strings.TrimSpace(strings.TrimSuffix(afterEquals(line), trailingComment(line)))
}

func afterEquals(line string) string {
	_, value, _ := strings.Cut(line, "=")
	return value
}

// trailingComment is the comment after a key's string value, with the
// blanks before it, "" when there is none.
func trailingComment(line string) string {
	value := strings.TrimSpace(afterEquals(line))
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

// tableLines is where a table is: its header line, and the line after
// its last; -1 when there is none.
func tableLines(lines []tomlLine, name string) (start, end int) {
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

// definesElsewhere refuses a key line that defines the tables loophook
// edits, or the tables that hold them, without a table header of its own:
// projects = …, or hooks.state… at the top, state = … in [hooks], and so
// on.
func definesElsewhere(line string, before []tomlLine, tables [][]string) error {
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
	for _, t := range tables {
		for i := 1; i < len(t)-1; i++ {
			if p := tomlName(t[:i]); full == p {
				return fmt.Errorf(errTOMLElsewhere, p, strings.TrimSpace(line), p)
			}
		}
		p := tomlName(t[:len(t)-1])
		if (full == p || strings.HasPrefix(full, p+".")) && !strings.HasPrefix(table, p+".") {
			return fmt.Errorf(errTOMLElsewhere, p, strings.TrimSpace(line), p)
		}
	}
	return nil
}
