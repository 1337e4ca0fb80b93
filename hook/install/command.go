package install

import (
	"runtime"
	"strings"

	"github.com/loophook/loophook/hook/handler"
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

// repointed is a loophook hook's command line, as shell reads it, run by
// bin with --protocol protocol: everything else a person wrote (a cd, an environment prefix,
// flags, their order) stays as written; a --protocol of another value is
// set, and a missing one added after the command. moved says whether the
// program changed. A line that is not loophook's becomes loophook's plain
// one.
func repointed(shell host.Shell, line, bin, command, protocol string) (cmd string, moved bool) {
	c, ok := handler.Parse(line, bin, command)
	if !ok {
		return commandLine(shell, bin, command, protocol), true
	}
	var b strings.Builder
	b.WriteString(c.Line[:c.Prog.Start])
	b.WriteString(program(shell, bin, c.Line[:c.Prog.Start]))
	at := c.Prog.End
	hasProtocol := false
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		name, value, hasValue := strings.Cut(a.Text, "=")
		if name != "--protocol" && name != "-protocol" {
			continue
		}
		hasProtocol = true
		switch {
		case hasValue && value != protocol:
			b.WriteString(c.Line[at:a.Start] + name + "=" + protocol)
			at = a.End
		case !hasValue && j+1 == len(c.Args):
			b.WriteString(c.Line[at:a.End] + " " + protocol)
			at = a.End
		case !hasValue && c.Args[j+1].Text != protocol:
			b.WriteString(c.Line[at:c.Args[j+1].Start] + protocol)
			at = c.Args[j+1].End
			j++
		}
	}
	if !hasProtocol {
		b.WriteString(c.Line[at:c.Args[0].End] + " --protocol " + protocol)
		at = c.Args[0].End
	}
	b.WriteString(c.Line[at:])
	return b.String(), c.Prog.Text != bin
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
