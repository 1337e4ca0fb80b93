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
// memory helper) gets a plain reply and is not counted. Every request is
// recorded. Past limit turns every request is refused with HTTP 400 and
// runaway is closed: Qwen ends the run on a 400, Droid does not (it runs
// its Stop hook again), so its runner kills it when runaway closes.
type chatAPI struct {
	standIn // the server, the script, its lock and records
	limit   int

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

// newChatAPI starts the stand-in on 127.0.0.1.
func newChatAPI(t *testing.T, statePath string, turns []turn) *chatAPI {
	return serveStandIn(t, &chatAPI{limit: chatTurnLimit, runaway: make(chan struct{})}, statePath, turns)
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
	req.Turn = len(req.Chat.Tools) > 0
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
	text := "Done."
	if req.Turn {
		text = a.play(n)
	}
	a.stream(w, req.Chat.Model, text)
}

// stream answers with text as chat.completion.chunk events: the text,
// then the finish with its usage, then [DONE].
func (a *chatAPI) stream(w http.ResponseWriter, model, text string) {
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
	send("", chunk(map[string]any{"role": "assistant", "content": text}, nil, nil))
	send("", chunk(map[string]any{}, "stop", map[string]any{
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
