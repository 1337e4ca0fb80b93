//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What the Qwen Code and Factory Droid tests share: a scripted hook, the
// hosts' hook files, and reading what the model got.

// scriptedHook is a hook script the test controls: its k-th call answers
// the k-th of its answers (the last one again past the list), and it
// keeps every input, one line each.
type scriptedHook struct{ dir string }

const scriptedHookScript = `#!/bin/sh
d=$(dirname "$0")
input=$(cat)
printf '%s\n' "$input" >> "$d/inputs"
n=$(($(wc -l < "$d/inputs")))
f="$d/answer-$n"
if [ ! -f "$f" ]; then f="$d/answer-last"; fi
cat "$f"
`

// newScriptedHook writes the script into dir with its answers.
func newScriptedHook(t *testing.T, dir string, answers ...string) *scriptedHook {
	t.Helper()
	if err := writeFile(filepath.Join(dir, "hook"), []byte(scriptedHookScript)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "hook"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, a := range answers {
		name := fmt.Sprintf("answer-%d", i+1)
		if i == len(answers)-1 {
			name = "answer-last"
		}
		if err := writeFile(filepath.Join(dir, name), []byte(a)); err != nil {
			t.Fatal(err)
		}
	}
	return &scriptedHook{dir: dir}
}

func (h *scriptedHook) command() string { return shellQuote(filepath.Join(h.dir, "hook")) }

// inputs returns the inputs the hook got, decoded.
func (h *scriptedHook) inputs(t *testing.T) []map[string]any {
	t.Helper()
	return readInputs(t, filepath.Join(h.dir, "inputs"))
}

// writeQwenHooks registers stop and start (commands) in the project's
// .qwen/settings.json, the shape of qwen-code/PROTOCOL.md §1, with the
// block cap given (0: none, Qwen's default 8).
func writeQwenHooks(t *testing.T, p *project, stop, start string, blockCap int) {
	t.Helper()
	group := func(name, command string) []any {
		return []any{map[string]any{"hooks": []any{map[string]any{
			"type": "command", "name": name, "command": command, "timeout": 60,
		}}}}
	}
	settings := map[string]any{"hooks": map[string]any{
		"Stop": group("loophook-stop", stop), "SessionStart": group("loophook-session-start", start),
	}}
	if blockCap > 0 {
		settings["stopHookBlockingCap"] = blockCap
	}
	if err := writeJSON(filepath.Join(p.dir, ".qwen", "settings.json"), settings); err != nil {
		t.Fatal(err)
	}
}

// writeDroidHooks registers stop and start in the project's
// .factory/hooks.json, keyed by event at the top (factory-droid/
// PROTOCOL.md §2).
func writeDroidHooks(t *testing.T, p *project, stop, start string) {
	t.Helper()
	group := func(command string) []any {
		return []any{map[string]any{"hooks": []any{map[string]any{
			"type": "command", "command": command, "timeout": 60,
		}}}}
	}
	if err := writeJSON(filepath.Join(p.dir, ".factory", "hooks.json"), map[string]any{
		"Stop": group(stop), "SessionStart": group(start),
	}); err != nil {
		t.Fatal(err)
	}
}

// qwenContext finds the SessionStart context at the end of the request's
// system prompt (qwen-code/PROTOCOL.md §6), < and > unescaped.
func qwenContext(r *chatRequest) (string, bool) {
	if len(r.Chat.Messages) == 0 || r.Chat.Messages[0].Role != "system" {
		return "", false
	}
	const open = "<qwen:session-start-context hidden=\"true\">\nSessionStart additional context:\n"
	const end = "\n</qwen:session-start-context>"
	sys := r.Chat.Messages[0].text()
	i := strings.LastIndex(sys, open)
	if i < 0 {
		return "", false
	}
	c, _, ok := strings.Cut(sys[i+len(open):], end)
	return unescapeHookContext(c), ok
}

// droidContext finds the SessionStart context: a user message of its own
// right before Droid's <system-reminder> message (factory-droid/
// PROTOCOL.md §8), or, in a fork, right before the new prompt.
func droidContext(r *chatRequest, prompt string) (string, bool) {
	msgs := r.Chat.Messages
	for i := 1; i < len(msgs); i++ {
		next := msgs[i].text()
		if msgs[i].Role == "user" && (strings.HasPrefix(next, "<system-reminder>") || next == prompt) &&
			msgs[i-1].Role == "user" && !strings.HasPrefix(msgs[i-1].text(), "<system-reminder>") {
			return msgs[i-1].text(), true
		}
	}
	return "", false
}

// reasonsAfter returns the new user message of every agent turn that is
// not a prompt's: the block reasons the model got, in order.
func reasonsAfter(turns []*chatRequest, prompts ...string) []string {
	var out []string
	for _, r := range turns {
		text, ok := r.newUser()
		if !ok {
			continue
		}
		isPrompt := false
		for _, p := range prompts {
			isPrompt = isPrompt || strings.HasSuffix(text, p)
		}
		if !isPrompt {
			out = append(out, text)
		}
	}
	return out
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func joinLines(lines []string) string { return strings.Join(lines, "\n") }

// installWrapped registers loophook for host in the project the way a
// person does, `loophook install --host host`, and then wraps each command
// it wrote in rec (stop flags added to the stop command), so that a test
// reads what loophook answered. file is the project's hook file, relative
// to the project; under is the key that holds its events ("" for the top
// level). What install wrote must be the binary's stop and session-start
// commands in host's protocol.
func installWrapped(t *testing.T, p *project, rec *hookRecorder, host, file, under string, stopFlags ...string) {
	t.Helper()
	installFor(t, p, host, nil)
	path := filepath.Join(p.dir, file)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	events := doc
	if under != "" {
		events, _ = doc[under].(map[string]any)
	}
	bin := loophookBinary(t)
	want := map[string]string{"Stop": "stop", "SessionStart": "session-start"}
	for event, command := range want {
		groups, _ := events[event].([]any)
		if len(groups) != 1 {
			t.Fatalf("%s: %d %s groups, want install's one", file, len(groups), event)
		}
		handlers, _ := groups[0].(map[string]any)["hooks"].([]any)
		if len(handlers) != 1 {
			t.Fatalf("%s: %s: %d handlers, want install's one", file, event, len(handlers))
		}
		h := handlers[0].(map[string]any)
		line := shellQuote(bin) + " " + command + " --protocol " + host
		if got, _ := h["command"].(string); got != bin+" "+command+" --protocol "+host && got != line {
			t.Fatalf("%s: %s runs %q, want loophook's %s", file, event, got, command)
		}
		if command == "stop" {
			line = strings.Join(append([]string{line}, stopFlags...), " ")
		}
		h["command"] = rec.wrap(command, line)
	}
	if err := writeJSON(path, doc); err != nil {
		t.Fatal(err)
	}
}
