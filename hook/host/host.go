// Package host holds the agent hosts loophook speaks to, one row each: the
// wire of a hook call (its input, its answers, where the agent's last
// message is, the variables that name the project), the marker its agent
// sets in the commands it runs, and how loophook install registers the
// hooks in its files (scopes, events, handler shape, timeout, trust, cap,
// notes, help).
//
// Adding a host is adding a file like codex.go, with a Host value and the
// sentences a person reads of it (its help and notes), its tests, and the
// value's name in table below. Nothing else names a host: help texts, flag
// usages, install and the hook all read the table.
package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/internal/jsontext"
)

// A Host is one agent host.
type Host struct {
	hook.Wire
	// AgentEnv are the environment variables the host's agent sets in the
	// commands its shell tool runs: any of them set, and not empty, says a
	// command runs inside the agent, not in a person's terminal. NAME=value
	// counts only with that value (AI_AGENT=pi: others set AI_AGENT too).
	AgentEnv []string
	// Runs names a host whose project hooks this one runs too, as that
	// host's own (Copilot CLI runs Claude Code's): a hook call registered for
	// Runs, made while this host's AgentEnv is set, reads this host's input
	// and transcript (Under).
	Runs string
	// Install is how loophook install registers the hooks in the host's
	// files; nil for a protocol that no host's file names (ok).
	Install *Registration
	// Help says, for install --help, where the hooks go: lines after the
	// host's name, without it.
	Help string
}

// table is every host, in the order help texts list them.
var table = []Host{strict, claude, codex, gemini, copilot, qwen, droid, pi}

// All are the hosts.
func All() []Host { return slices.Clone(table) }

// Names are the hosts' names, sorted.
func Names() []string {
	var names []string
	for _, h := range table {
		names = append(names, h.Name)
	}
	slices.Sort(names)
	return names
}

// Installable are the hosts loophook install registers with.
func Installable() []Host {
	var hosts []Host
	for _, h := range table {
		if h.Install != nil {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// InstallableNames are the names of the hosts install registers with.
func InstallableNames() []string {
	var names []string
	for _, h := range Installable() {
		names = append(names, h.Name)
	}
	return names
}

// Titles is "Claude Code, Codex CLI … or Qwen Code": the hosts install
// registers with.
func Titles() string {
	var titles []string
	for _, h := range Installable() {
		titles = append(titles, h.Title)
	}
	return OrList(titles)
}

// Help is each installable host's help under its name, for install --help.
func Help() string {
	var b strings.Builder
	for _, h := range Installable() {
		lines := strings.Split(h.Help, "\n")
		fmt.Fprintf(&b, "  %-8s %s\n", h.Name, lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "%11s%s\n", "", l)
		}
	}
	return b.String()
}

// Lookup returns the host of a --protocol or --host name: its name, or its
// title as one word in lower case (claude-code for claude).
func Lookup(name string) (Host, error) {
	for _, h := range table {
		if h.Name == name || strings.ToLower(strings.Join(strings.Fields(h.Title), "-")) == name {
			return h, nil
		}
	}
	return Host{}, fmt.Errorf(errUnknown, name, OrList(Names()))
}

// Strict is the protocol of a hook call that names none: the strict
// {ok, reason} verdict.
func Strict() Host {
	h, _ := Lookup(strictName)
	return h
}

// Agent reports whether getenv shows the host's agent running the command.
func (h Host) Agent(getenv func(string) string) bool {
	_, ok := h.Marker(getenv)
	return ok
}

// Marker is the first of the host's AgentEnv that getenv shows set.
func (h Host) Marker(getenv func(string) string) (string, bool) {
	for _, v := range h.AgentEnv {
		name, want, exact := strings.Cut(v, "=")
		if got := getenv(name); got != "" && (!exact || got == want) {
			return v, true
		}
	}
	return "", false
}

// AgentOf is the host whose agent runs the command, by getenv, if any.
func AgentOf(getenv func(string) string) (Host, bool) {
	for _, h := range table {
		if h.Agent(getenv) {
			return h, true
		}
	}
	return Host{}, false
}

// Under is the host a hook call really runs under: a host that Runs h's
// registrations and whose agent makes the call (lent) lends it its input,
// its transcript, its token usage, its project variables and its name. The
// answers stay in h's wire, which is the one the registration asked for; a
// session's context is also put where the lending host reads it (Copilot
// CLI ignores Claude Code's hookSpecificOutput, PROTOCOL.md section 6),
// unless the lending host has a registration of its own (ownRegistered),
// which gives it.
func (h Host) Under(getenv func(string) string, ownRegistered func(Host) bool) (u Host, lent bool) {
	for _, g := range table {
		if g.Runs != h.Name || !g.Agent(getenv) {
			continue
		}
		u = h
		u.Name, u.Title, u.ReadInput, u.LastMessage, u.ProjectDir, u.Usage = g.Name, g.Title, g.ReadInput, g.LastMessage, g.ProjectDir, g.Usage
		u.AgentEnv = g.AgentEnv
		if !ownRegistered(g) {
			own, theirs := h.SessionStart, g.SessionStart
			u.SessionStart = func(context string) any { return merged(own(context), theirs(context)) }
		}
		return u, true
	}
	return h, false
}

// merged is one answer with the members of both a and b, a's where both
// have one: an object each host reads its own part of.
func merged(a, b any) any {
	out := map[string]json.RawMessage{}
	for _, v := range []any{b, a} {
		var data bytes.Buffer // with <, > and & as they are, as jsontext.Write writes
		err := jsontext.Write(&data, v)
		var members map[string]json.RawMessage
		if err != nil || json.Unmarshal(data.Bytes(), &members) != nil {
			return a
		}
		for k, m := range members {
			out[k] = m
		}
	}
	return out
}

// OrList is "a, b or c".
func OrList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Caller is the host whose hook call this is, by getenv: the one whose
// agent marker is set, else one whose project variable is (Claude Code
// sets CLAUDE_PROJECT_DIR for its hooks); ok is false when none is.
func Caller(getenv func(string) string) (Host, bool) {
	if h, ok := AgentOf(getenv); ok {
		return h, true
	}
	for _, h := range table {
		if h.Name != strictName && slices.ContainsFunc(h.ProjectDir, func(v string) bool { return getenv(v) != "" }) {
			return h, true
		}
	}
	return Host{}, false
}
