//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// chatAPI is a local stand-in for the OpenAI Chat Completions API, as Qwen
// Code 0.24.4 and Factory Droid 0.225.2 use it headless (their PROTOCOL.md
// files, qwen-code/ §9 and factory-droid/ §11): POST /v1/chat/completions
// with "stream": true, answered with server-sent chat.completion.chunk
// events and "data: [DONE]".
//
// A request that offers tools is a turn of the agent: the k-th of them,
// over all the runs of a scenario, gets turns[k-1], its edit applied to
// the state file before the reply; a request without tools (a title or
// memory helper) gets a plain reply and is not counted. A turn with a
// command is answered with a call of the host's shell tool, its edit
// applied, and the request that brings the tool's output back (a "tool"
// message last; not a turn) with the turn's text. Every request is
// recorded. Past limit turns every request is refused with HTTP 400 and
// runaway is closed: Qwen ends the run on a 400, Droid does not (it runs
// its Stop hook again), so its runner kills it when runaway closes.
type chatAPI struct {
	standIn // the server, the script, its lock and records
	limit   int
	shell   shellTool // the host's, for the turns with a command

	reqs    []*chatRequest
	served  int
	runaway chan struct{}
	once    sync.Once
}

// chatRequest is one request as the stand-in received it.
type chatRequest struct {
	received
	Chat    chatCompletion
	Turn    bool // offered tools: a turn of the agent
	Output  bool // brings a tool's output back: not a turn
	Refused bool // answered HTTP 400: past the limit
}

// chatCompletion is the part of a request the suite reads.
type chatCompletion struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Messages []chatMessage     `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
}

type chatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string, or an array of parts
}

// text is the message's content: the string, or its text parts joined
// with "\n".
func (m chatMessage) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &parts)
	var out []string
	for _, p := range parts {
		if p.Type == "text" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// newUser is the text of the request's last message when that is a
// user message: the prompt, or a hook's block reason.
func (r *chatRequest) newUser() (string, bool) {
	msgs := r.Chat.Messages
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != "user" {
		return "", false
	}
	return msgs[len(msgs)-1].text(), true
}

// chatTurnLimit is the stand-in's default cap on agent turns per
// scenario: above what any scenario means to run (loophook's own
// continuation limit is 50, and one scenario runs into it).
const chatTurnLimit = 64

// The hosts' shell tools, as their first requests offer them: Qwen's,
// with --yolo, is Gemini CLI's (Qwen Code is a fork of it); Droid's
// Execute, with --auto, requires a risk level and a summary of 3 to 8
// words, the first capitalised.
var (
	qwenShell  = geminiShell
	droidShell = shellTool{"Execute", map[string]any{
		"summary":         "Run the scripted command",
		"riskLevelReason": "It runs a command of the loop's own tool.",
		"riskLevel":       "medium",
	}}
)

// newChatAPI starts the stand-in on 127.0.0.1, for the host whose shell
// tool is shell.
func newChatAPI(t *testing.T, shell shellTool, statePath string, turns []turn) *chatAPI {
	return serveStandIn(t, &chatAPI{limit: chatTurnLimit, shell: shell, runaway: make(chan struct{})}, statePath, turns)
}

// requests returns every request received so far, in order.
func (a *chatAPI) requests() []*chatRequest { return snapshot(&a.standIn, &a.reqs) }

// turns returns the agent's turns received so far, refused ones too.
func (a *chatAPI) turns() []*chatRequest {
	var out []*chatRequest
	for _, r := range a.requests() {
		if r.Turn {
			out = append(out, r)
		}
	}
	return out
}

func (a *chatAPI) serve(w http.ResponseWriter, r *http.Request, got received) {
	req := &chatRequest{received: got}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		keep(&a.standIn, &a.reqs, req)
		a.refuse(w, http.StatusNotFound, notServed(r))
		return
	}
	if err := json.Unmarshal(got.Body, &req.Chat); err != nil {
		keep(&a.standIn, &a.reqs, req)
		a.fail(fmt.Errorf("POST %s: %v", r.URL.Path, err))
		a.refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	msgs := req.Chat.Messages
	req.Output = len(msgs) > 0 && msgs[len(msgs)-1].Role == "tool"
	req.Turn = len(req.Chat.Tools) > 0 && !req.Output
	a.mu.Lock()
	a.reqs = append(a.reqs, req)
	n := 0
	if req.Turn {
		a.served++
		n = a.served
	}
	req.Refused = n > a.limit
	a.mu.Unlock()
	if req.Refused {
		a.once.Do(func() {
			a.fail(fmt.Errorf("agent turn %d: past the stand-in's limit of %d, answered HTTP 400 (a hook that never lets the agent stop?)", n, a.limit))
			close(a.runaway)
		})
		a.refuse(w, http.StatusBadRequest, "e2e stand-in: past its limit of agent turns: a runaway loop")
		return
	}
	switch {
	case req.Output:
		msgs := req.Chat.Messages
		a.stream(w, req.Chat.Model, map[string]any{"content": a.gotOutput(msgs[len(msgs)-1].text())}, "stop")
	case !req.Turn:
		a.stream(w, req.Chat.Model, map[string]any{"content": "Done."}, "stop")
	default:
		text, command := a.play(n), a.command(n)
		if command == "" {
			a.stream(w, req.Chat.Model, map[string]any{"content": text}, "stop")
			return
		}
		a.awaitOutput(text)
		args, _ := json.Marshal(a.shell.args(command))
		a.stream(w, req.Chat.Model, map[string]any{"tool_calls": []any{map[string]any{
			"index": 0, "id": fmt.Sprintf("call_e2e_%d", n), "type": "function",
			"function": map[string]any{"name": a.shell.name, "arguments": string(args)},
		}}}, "tool_calls")
	}
}

// stream answers with delta, the assistant's reply, as
// chat.completion.chunk events: the delta, then the finish with its
// usage, then [DONE].
func (a *chatAPI) stream(w http.ResponseWriter, model string, delta map[string]any, finish string) {
	id := fmt.Sprintf("chatcmpl-e2e-%d", a.nextID())
	created := time.Now().Unix()
	chunk := func(delta map[string]any, finish any, usage any) map[string]any {
		c := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
		if usage != nil {
			c["usage"] = usage
		}
		return c
	}
	send := startEvents(w)
	delta["role"] = "assistant"
	send("", chunk(delta, nil, nil))
	send("", chunk(map[string]any{}, finish, map[string]any{
		"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
	}))
	fmt.Fprint(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// refuse answers with the OpenAI error shape, which neither host retries.
func (a *chatAPI) refuse(w http.ResponseWriter, code int, msg string) {
	answerJSON(w, code, map[string]any{
		"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": nil},
	})
}
