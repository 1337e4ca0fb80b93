package hook

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/hook/transcript"
	"github.com/loophook/loophook/schema"
)

// stateFile is where a hope loop keeps its state.
const stateFile = ".loop/state.json"

// stop runs the Stop hook as the command does, notes on stderr.
func stop(o Options, stdin io.Reader, stdout, stderr io.Writer) {
	o.Note = func(msg string) { fmt.Fprintln(stderr, Prefix+msg) }
	Run(EventStop, o, stdin, stdout)
}

// sessionStart runs the SessionStart hook as the command does.
func sessionStart(o Options, stdin io.Reader, stdout, stderr io.Writer) {
	o.Note = func(msg string) { fmt.Fprintln(stderr, Prefix+msg) }
	Run(EventSessionStart, o, stdin, stdout)
}

// host returns the strict protocol, as hook/host has it: this package's
// tests cannot import the hosts, which import it (hook/host tests every
// host's wire through Run).
func host(name string) Wire {
	if name != "ok" {
		panic("hook's tests speak only ok, not " + name)
	}
	return Wire{
		Name:         "ok",
		ReadInput:    ReadInput,
		Stop:         func(v criteria.Verdict) any { return okAnswer{OK: v.OK, Reason: v.Reason} },
		SessionStart: func(context string) any { return okAnswer{OK: true, Reason: context} },
		LastMessage: func(in Input) (string, error) {
			if in.LastAssistantMessage != nil {
				return *in.LastAssistantMessage, nil
			}
			return transcript.LastAssistantText(in.TranscriptPath)
		},
		ProjectDir: []string{"CLAUDE_PROJECT_DIR"},
	}
}

type okAnswer struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason"`
}

// hopeStore is the store of the hope loop in dir.
func hopeStore(dir string) Store {
	return StoreFor(state.Found{Path: filepath.Join(dir, stateFile), Dialect: schema.Hope})
}
