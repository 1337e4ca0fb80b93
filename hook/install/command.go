package install

import (
	"runtime"
	"strings"

	"github.com/loophook/loophook/hook/host"
)

// The command line a host runs for one of loophook's hooks, and how one a
// person wrote is recognised as loophook's.

// onWindows: install writes each host's Windows form of the handler
// (host.Registration.Windows); a variable, so that tests write it anywhere.
var onWindows = runtime.GOOS == "windows"

// commandLine is the command line a host runs for one of loophook's hooks,
// speaking that host's protocol, as shell reads it.
func commandLine(shell host.Shell, bin, command, protocol string) string {
	return program(shell, bin, "") + " " + command + " --protocol " + protocol
}

// program is bin as shell reads a program's name after prefix, the words a
// line has before it: PowerShell runs a quoted path only after its call
// operator, &.
func program(shell host.Shell, bin, prefix string) string {
	switch shell {
	case host.PowerShell:
		q := "'" + strings.ReplaceAll(bin, "'", "''") + "'"
		if !strings.HasSuffix(strings.TrimSpace(prefix), "&") {
			q = "& " + q
		}
		return q
	case host.Cmd:
		return cmdQuote(bin)
	}
	return shellQuote(bin)
}

// cmdSafe are the bytes a path needs no quotes for in both cmd.exe and
// bash: no % (cmd.exe expands it), no = or , (cmd.exe splits at them); a ~
// inside a word, as in a short name, is not bash's home.
const cmdSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@+:./-~"

// cmdQuote writes a Windows path for both cmd.exe and bash: with forward
// slashes, which both take and bash does not read as escapes; bare when it
// can be, since the hosts that run cmd.exe /s /c quote a line that holds
// quotes again (\\") before cmd.exe reads it: a path with a space by its
// short name (C:/PROGRA~1/...) where the volume keeps those; else in
// double quotes.
func cmdQuote(s string) string {
	for _, p := range []string{s, shortName(s)} {
		if p = strings.ReplaceAll(p, `\`, "/"); p != "" && strings.Trim(p, cmdSafe) == "" {
			return p
		}
	}
	return `"` + strings.ReplaceAll(s, `\`, "/") + `"`
}

// ours recognises the command line of loophook's handler for command: the
// one bin would be installed as, or any loophook's.
func ours(bin, command string) func(string) bool {
	return func(line string) bool {
		_, ok := parseCall(line, bin, command)
		return ok
	}
}

// call is a hook's command line that runs loophook: the words before the
// program (a cd DIR &&, environment assignments, env, exec), the program,
// and its arguments, the first of which is loophook's command.
type call struct {
	line string
	prog word
	args []word
}

// parseCall takes apart a command line that runs loophook's command: a
// program named loophook, or bin, after loophook's guard (committed.go), a
// cd DIR &&, any environment assignments, env or exec, or PowerShell's call operator (&). A person may
// have written it any of these ways.
func parseCall(line, bin, command string) (call, bool) {
	line = strings.TrimSpace(line)
	words, ok := shellWords(line)
	if !ok {
		return call{}, false
	}
	i := afterGuard(line, words)
	if len(words) > i+3 && words[i].text == "cd" && line[words[i+2].start:words[i+2].end] == "&&" {
		i += 3
	}
	for i < len(words) && (isAssignment(line[words[i].start:words[i].end]) || words[i].text == "env" || words[i].text == "exec" || words[i].text == "&") {
		i++
	}
	if i+1 >= len(words) || words[i+1].text != command {
		return call{}, false
	}
	if !ourProgram(words[i].text, bin) {
		return call{}, false
	}
	return call{line, words[i], words[i+1:]}, true
}

// ourProgram reports whether a program named as prog is loophook: one
// named so, or bin.
func ourProgram(prog, bin string) bool {
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

// repointed is a loophook hook's command line, as shell reads it, run by
// bin with --protocol protocol: everything else a person wrote (a cd, an environment prefix,
// flags, their order) stays as written; a --protocol of another value is
// set, and a missing one added after the command. moved says whether the
// program changed. A line that is not loophook's becomes loophook's plain
// one.
func repointed(shell host.Shell, line, bin, command, protocol string) (cmd string, moved bool) {
	c, ok := parseCall(line, bin, command)
	if !ok {
		return commandLine(shell, bin, command, protocol), true
	}
	var b strings.Builder
	b.WriteString(c.line[:c.prog.start])
	b.WriteString(program(shell, bin, c.line[:c.prog.start]))
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
// expands them; ok is false when a quote is left open, or for a NUL byte,
// which no shell is given: the command line a host runs ends at it. It is
// held to mvdan.cc/sh's parser by FuzzShellWords.
func shellWords(line string) (words []word, ok bool) {
	if strings.IndexByte(line, 0) >= 0 {
		return nil, false
	}
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
		words = append(words, word{start, len(line), b.String()})
	}
	return words, true
}

// shellSafe are the bytes a word needs no quotes for.
const shellSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-"

// shellQuote quotes a path for the shell a host runs hook commands in.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, shellSafe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
