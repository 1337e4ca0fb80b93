//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook/host"
)

// codexHook is one command hook to register in a Codex hooks file.
type codexHook struct {
	event   string // "Stop", "SessionStart"
	command string // run as /bin/bash -c command, cwd the session's
	timeout int    // seconds
}

// writeCodexHooks writes a hooks.json holding hooks, one matcher group per
// hook, in the shape of PROTOCOL.md §1.
func writeCodexHooks(path string, hooks ...codexHook) error {
	type handler struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout,omitempty"`
	}
	type group struct {
		Hooks []handler `json:"hooks"`
	}
	events := map[string][]group{}
	for _, h := range hooks {
		events[h.event] = append(events[h.event], group{Hooks: []handler{{"command", h.command, h.timeout}}})
	}
	return writeJSON(path, map[string]any{"hooks": events})
}

// trustCodexHooks writes into the user config.toml what a person who
// trusts the project and reviews its hooks in the interactive UI leaves
// there (PROTOCOL.md §2): project trust for the project's root, and a
// trusted_hash, computed by the product's host.CodexHookHash, for every
// handler of the project's and the user's hooks.json. An entry whose table
// the config already has (an installer wrote it) is left as it is. Codex
// skips an untrusted hook without a word, so a wrong hash shows as a hook
// that never ran.
func trustCodexHooks(t *testing.T, s *codexSession) {
	t.Helper()
	config, err := os.ReadFile(s.configPath())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	add := func(table, body string) {
		if header := "[" + table + "]"; !strings.Contains(string(config), header) {
			fmt.Fprintf(&b, "\n%s\n%s\n", header, body)
		}
	}
	add("projects."+tomlString(s.p.dir), `trust_level = "trusted"`)
	for _, file := range []string{s.projectHooksPath(), filepath.Join(s.codexHome, "hooks.json")} {
		entries, err := codexTrustEntries(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			add("hooks.state."+tomlString(e.key), "trusted_hash = "+tomlString(e.hash))
		}
	}
	if err := writeFile(s.configPath(), append(config, b.String()...)); err != nil {
		t.Fatal(err)
	}
}

type codexTrustEntry struct{ key, hash string }

// codexTrustEntries returns the trust entries for every command handler of
// a hooks file (none when there is no file). Only what host.CodexHookHash
// hashes may be set: a matcher, async, statusMessage or
// additionalContextLimit would change the hash, so they are refused here
// rather than trusted wrongly.
func codexTrustEntries(path string) ([]codexTrustEntry, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var file struct {
		Hooks map[string][]map[string]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	events := make([]string, 0, len(file.Hooks))
	for e := range file.Hooks {
		events = append(events, e)
	}
	sort.Strings(events)
	var out []codexTrustEntry
	for _, event := range events {
		label := host.CodexEventLabel(event)
		for g, group := range file.Hooks[event] {
			if _, ok := group["matcher"]; ok {
				return nil, fmt.Errorf("%s: %s group %d has a matcher, which trustCodexHooks cannot hash", path, event, g)
			}
			var handlers []map[string]any
			if err := json.Unmarshal(group["hooks"], &handlers); err != nil {
				return nil, fmt.Errorf("%s: %s group %d: %v", path, event, g, err)
			}
			for h, handler := range handlers {
				if handler["type"] != "command" {
					continue
				}
				for k := range handler {
					if k != "type" && k != "command" && k != "timeout" {
						return nil, fmt.Errorf("%s: %s hook %d:%d sets %q, which trustCodexHooks cannot hash", path, event, g, h, k)
					}
				}
				command, _ := handler["command"].(string)
				timeout, set := handler["timeout"].(float64)
				if set && timeout < 1 {
					// Codex hashes it as 1, CodexHookHash as unset.
					return nil, fmt.Errorf("%s: %s hook %d:%d has timeout %v", path, event, g, h, timeout)
				}
				out = append(out, codexTrustEntry{
					key:  host.CodexTrustKey(path, label, g, h),
					hash: host.CodexHookHash(label, command, int(timeout)),
				})
			}
		}
	}
	return out, nil
}

// standInHook is a scripted stand-in for loophook's Codex hooks: a shell
// script that answers Stop with {"decision":"block","reason":R} a set
// number of times, then {}, and SessionStart with a fixed
// additionalContext. It records every input it gets, and at each Stop the
// state file's iteration, so a test can tell what the hooks saw and when.
type standInHook struct {
	dir     string   // the script, its settings and its logs
	reasons []string // the i-th block's reason
}

// standInScript is the stand-in hook: $1 is stop or session-start. Codex
// runs it through bash with the session's cwd, the project.
const standInScript = `#!/bin/bash
set -u
here=$(dirname "$0")
input=$(cat)
printf '%s\n' "$input" >> "$here/$1.jsonl"
case $1 in
stop)
	sed -n 's/^ *"iteration": *\([0-9]*\).*/\1/p' .loop/state.json >> "$here/stop.iterations" 2>/dev/null
	n=$(cat "$here/blocks")
	if [ "$n" -lt "$(cat "$here/block-limit")" ]; then
		n=$((n + 1))
		echo "$n" > "$here/blocks"
		printf '{"decision":"block","reason":%s}' "$(sed -n "${n}p" "$here/reasons")"
	else
		printf '{}'
	fi
	;;
session-start)
	printf '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":%s}}' "$(cat "$here/context")"
	;;
esac
`

// newStandInHook writes the stand-in into dir, set to block no Stop yet
// (see blockNext). The hook commands name dir as it is, quoted: give it a
// space to check that Codex runs, and the trust hash covers, a quoted
// command.
func newStandInHook(t *testing.T, dir string, reasons []string, context string) *standInHook {
	t.Helper()
	h := &standInHook{dir: dir, reasons: reasons}
	// One JSON string a line, ready for the script to paste into its answer.
	var lines strings.Builder
	for _, r := range reasons {
		b, _ := json.Marshal(r)
		lines.Write(append(b, '\n'))
	}
	if err := writeFile(filepath.Join(dir, "reasons"), []byte(lines.String())); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hook"), []byte(standInScript), 0o755); err != nil {
		t.Fatal(err)
	}
	h.setContext(t, context)
	h.blockNext(t, 0)
	return h
}

// blockNext makes the next n Stops block, each with the next of the
// reasons not used yet, and every Stop after them let the agent stop.
func (h *standInHook) blockNext(t *testing.T, n int) {
	t.Helper()
	used := 0
	if b, err := os.ReadFile(filepath.Join(h.dir, "blocks")); err == nil {
		used, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if used+n > len(h.reasons) {
		t.Fatalf("stand-in hook: %d blocks more after %d, but %d reasons", n, used, len(h.reasons))
	}
	for name, content := range map[string]string{
		"blocks":      fmt.Sprintf("%d\n", used),
		"block-limit": fmt.Sprintf("%d\n", used+n),
	} {
		if err := writeFile(filepath.Join(h.dir, name), []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
}

// setContext changes the SessionStart additionalContext from now on.
func (h *standInHook) setContext(t *testing.T, context string) {
	t.Helper()
	b, _ := json.Marshal(context)
	if err := writeFile(filepath.Join(h.dir, "context"), b); err != nil {
		t.Fatal(err)
	}
}

// command is the hook command for event ("stop", "session-start").
func (h *standInHook) command(event string) string {
	return fmt.Sprintf("%q %s", filepath.Join(h.dir, "hook"), event)
}

// registration registers the stand-in for Stop and SessionStart in the
// project's .codex/hooks.json and trusts it as a person would.
func (h *standInHook) registration() codexRegistration {
	return func(t *testing.T, s *codexSession) {
		t.Helper()
		if err := writeCodexHooks(s.projectHooksPath(),
			codexHook{event: "Stop", command: h.command("stop"), timeout: 60},
			codexHook{event: "SessionStart", command: h.command("session-start"), timeout: 60},
		); err != nil {
			t.Fatal(err)
		}
		trustCodexHooks(t, s)
	}
}

// inputs returns the hook inputs the stand-in got for event, in order.
func (h *standInHook) inputs(t *testing.T, event string) []map[string]any {
	t.Helper()
	return readInputs(t, filepath.Join(h.dir, event+".jsonl"))
}

// stopIterations returns the state's iteration as each Stop saw it.
func (h *standInHook) stopIterations(t *testing.T) []string {
	t.Helper()
	b, _ := readIfAny(t, filepath.Join(h.dir, "stop.iterations"))
	return strings.Fields(string(b))
}

// hookRecorder wraps hook commands so that a test can read what each one
// answered: `codex exec` reports a hook's outcome (Completed, Blocked...)
// but not its answer, so that {} and {"systemMessage":M} look the same.
// A wrapped command is a new command to Codex: register it with
// writeCodexHooks and trust it with trustCodexHooks.
type hookRecorder struct{ dir string }

// recorderScript runs "$2", a hook command, as Codex would, with the
// script's stdin, and logs that input and the answer under the name "$1".
// The command's stderr and exit status pass through.
const recorderScript = `#!/bin/bash
here=$(dirname "$0")
input=$(cat)
printf '%s\n' "$input" >> "$here/$1.inputs.jsonl"
answer=$(printf '%s' "$input" | /bin/bash -c "$2")
status=$?
printf '%s\n' "$answer" >> "$here/$1.answers"
printf '%s' "$answer"
exit $status
`

func newHookRecorder(t *testing.T, dir string) *hookRecorder {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "record"), []byte(recorderScript), 0o755); err != nil {
		t.Fatal(err)
	}
	return &hookRecorder{dir: dir}
}

// wrap returns command wrapped to be recorded under name (one line per
// answer, so an answer must be one line, as a hook's JSON answer is).
func (r *hookRecorder) wrap(name, command string) string {
	return fmt.Sprintf("%q %s %s", filepath.Join(r.dir, "record"), name, shellQuote(command))
}

// answers returns what the command recorded under name answered, in order.
func (r *hookRecorder) answers(t *testing.T, name string) []string {
	t.Helper()
	b, ok := readIfAny(t, filepath.Join(r.dir, name+".answers"))
	if !ok {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// inputs returns the inputs the command recorded under name got, decoded.
func (r *hookRecorder) inputs(t *testing.T, name string) []map[string]any {
	t.Helper()
	return readInputs(t, filepath.Join(r.dir, name+".inputs.jsonl"))
}

// shellQuote quotes s as one word for bash.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
