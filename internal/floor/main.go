// Command floor is the yardstick loophook's Stop hook is measured against.
//
// A Stop hook runs at the end of every turn of every session, so what it
// costs is paid again and again. Most of what any Go hook costs is not its
// own work but the process: exec, the Go runtime starting up, reading stdin,
// writing stdout and exiting. floor does exactly that much and nothing more:
// it decodes the hook input on stdin with encoding/json and prints a fixed
// verdict. It is the least a Go Stop hook can cost, so "loophook stop costs
// at most 2× floor" is a goal about loophook's own work, independent of
// the machine. internal/benchhook builds it and times the two side by side.
//
// Keep it this small: anything added here raises the floor and hides what
// loophook adds.
package main

import (
	"encoding/json"
	"os"
)

// hookInput is the part of Claude Code's Stop hook input a hook reads.
type hookInput struct {
	SessionID            string `json:"session_id"`
	TranscriptPath       string `json:"transcript_path"`
	Cwd                  string `json:"cwd"`
	HookEventName        string `json:"hook_event_name"`
	StopHookActive       bool   `json:"stop_hook_active"`
	LastAssistantMessage string `json:"last_assistant_message"`
}

func main() {
	var in hookInput
	_ = json.NewDecoder(os.Stdin).Decode(&in) // the verdict is fixed whatever the input
	os.Stdout.WriteString(`{"ok":true,"reason":""}` + "\n")
}
