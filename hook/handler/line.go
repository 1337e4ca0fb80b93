package handler

import "strings"

// How a command line a person or install wrote is recognised as one that
// runs loophook.

// Call is a hook's command line that runs loophook: the words before the
// program (a cd DIR &&, environment assignments, env, exec), the program,
// and its arguments, the first of which is loophook's command.
type Call struct {
	Line string
	Prog Word
	Args []Word
}

// Parse takes apart a command line that runs loophook's command: a
// program named loophook, or bin, after loophook's guard (GuardPrefix), a
// cd DIR &&, any environment assignments, env or exec, or PowerShell's call operator (&). A person may
// have written it any of these ways.
func Parse(line, bin, command string) (Call, bool) {
	line = strings.TrimSpace(line)
	words, ok := shellWords(line)
	if !ok {
		return Call{}, false
	}
	i := afterGuard(line, words)
	if len(words) > i+3 && words[i].Text == "cd" && line[words[i+2].Start:words[i+2].End] == "&&" {
		i += 3
	}
	for i < len(words) && (isAssignment(line[words[i].Start:words[i].End]) || words[i].Text == "env" || words[i].Text == "exec" || words[i].Text == "&") {
		i++
	}
	if i+1 >= len(words) || words[i+1].Text != command {
		return Call{}, false
	}
	if !IsLoophook(words[i].Text, bin) {
		return Call{}, false
	}
	return Call{line, words[i], words[i+1:]}, true
}

// IsLoophook reports whether a program named as prog is loophook: one
// named so, or bin.
func IsLoophook(prog, bin string) bool {
	base := prog[strings.LastIndexAny(prog, `/\`)+1:]
	return base == "loophook" || base == "loophook.exe" || bin != "" && prog == bin
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

// GuardPrefix starts loophook's guard, which install writes in a
// committed file; Parse looks past it.
const GuardPrefix = "command -v "

// IsGuarded reports whether a line starts with loophook's guard.
func IsGuarded(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), GuardPrefix)
}

// afterGuard is where the call starts in a guarded line's words: after the
// last word that ends a command with ";"; 0 for a line without the guard.
func afterGuard(line string, words []Word) int {
	if len(words) < 3 || words[0].Text != "command" || words[1].Text != "-v" {
		return 0
	}
	for k := len(words) - 1; k > 1; k-- {
		if strings.HasSuffix(line[words[k].Start:words[k].End], ";") {
			return k + 1
		}
	}
	return 0
}

// A Word is one word of a shell command line: where it is as written, and
// what it says once its quotes are taken off.
type Word struct {
	Start, End int
	Text       string
}

// shellWords splits a command line into words the way sh does before it
// expands them; ok is false when a quote is left open, or for a NUL byte,
// which no shell is given: the command line a host runs ends at it. It is
// held to mvdan.cc/sh's parser by FuzzShellWords.
func shellWords(line string) (words []Word, ok bool) {
	if strings.IndexByte(line, 0) >= 0 {
		return nil, false
	}
	var b strings.Builder
	start := -1
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == ' ' || c == '\t' || c == '\n' {
			if start >= 0 {
				words = append(words, Word{start, i, b.String()})
				b.Reset()
				start = -1
			}
			continue
		}
		if start < 0 && c == '#' {
			// A comment, to the end of the line.
			if nl := strings.IndexByte(line[i:], '\n'); nl >= 0 {
				i += nl - 1
				continue
			}
			break
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
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`\n", line[i+1]) >= 0 {
					i++
					if line[i] == '\n' {
						continue // a line continuation inside double quotes
					}
				}
				b.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, false
			}
		case '\\':
			if i+1 == len(line) {
				b.WriteByte(c) // nothing to escape: sh keeps it
				continue
			}
			i++
			if line[i] == '\n' {
				// A line continuation: gone before sh reads words, so
				// that it starts none.
				if start == i-1 {
					start = -1
				}
				continue
			}
			b.WriteByte(line[i])
		default:
			b.WriteByte(c)
		}
	}
	if start >= 0 {
		words = append(words, Word{start, len(line), b.String()})
	}
	return words, true
}
