//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A turn is one scripted reply of the stand-in model. Before the reply is
// sent, edit changes the scratch project's state file the way an agent
// working the loop would; Claude Code runs the Stop hook only after the
// reply has arrived, so the hook always sees the edit.
type turn struct {
	edit edit
	text string
}

// stubAPI is a local stand-in for the Anthropic Messages API, enough of it
// for Claude Code 2.1.330 in print mode (-p) to run a whole session.
//
// Claude Code sends two kinds of model requests: main-loop requests, one
// per turn of the conversation, and side requests of its own (the binary
// has them for session titles, memory extraction, prompt-type hooks and
// more; in these print-mode sessions only a prompt-type hook was seen to
// send one). Every request is recorded, body and all; only main-loop
// requests are scripted and counted. See isMainLoop for how they are told
// apart.
type stubAPI struct {
	standIn        // the server, its lock, and what went wrong in the handler
	prompt  string // the -p prompt, to recognise the conversation's start
	state   string // the state file that turns edit

	turns []turn
	main  []*apiRequest
	side  []*apiRequest
	ids   int // replies sent, for unique message ids
}

// apiRequest is one request as the stand-in received it.
type apiRequest struct {
	Method, Path string
	Header       http.Header
	Body         []byte
	Msg          messagesRequest // parsed for POST /v1/messages
}

// messagesRequest is the part of a Messages API request the suite reads.
type messagesRequest struct {
	Model     string            `json:"model"`
	MaxTokens int               `json:"max_tokens"`
	Stream    bool              `json:"stream"`
	System    json.RawMessage   `json:"system"` // a string or text blocks
	Messages  []message         `json:"messages"`
	Tools     []json.RawMessage `json:"tools"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or content blocks
}

// texts returns the text of a string or of the text blocks of a content
// array (system prompts and message contents have the same two shapes).
func texts(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var out []string
	for _, b := range blocks {
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return out
}

func (m message) text() string { return strings.Join(texts(m.Content), "\n") }

// systemTexts returns everything Claude Code told the model as the system:
// the top-level system prompt and the role "system" messages inside
// messages, where 2.1.330 puts its environment section, the SessionStart
// hook's additionalContext (just before it) and Stop hook blocking errors.
func (r messagesRequest) systemTexts() []string {
	out := texts(r.System)
	for _, m := range r.Messages {
		if m.Role == "system" {
			out = append(out, m.text())
		}
	}
	return out
}

// lastUser returns the text of the last user message.
func (r messagesRequest) lastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].text()
		}
	}
	return ""
}

// What Claude Code 2.1.330 sends the model after a Stop hook blocked with
// {"decision":"block","reason":R}: a user message feedbackPrefix+R, then a
// role "system" message blockingError(command, R). (PROTOCOL.md writes the
// latter without the colon after "command"; the binary has it.)
const feedbackPrefix = "Stop hook feedback:\n"

func blockingError(command, reason string) string {
	return `Stop hook blocking error from command: "` + command + `": ` + reason
}

// isMainLoop tells a main-loop request from a side request.
//
// 2.1.330 marks neither kind in its headers or metadata (the query source
// stays inside the client), and some side requests fork the main
// conversation with the same model, system prompt and tools, adding an
// instruction of their own at the end. What does set a main-loop request
// apart is what it answers: the main loop asks the model to go on only
// after the user's prompt or after a Stop hook blocked ("Stop hook
// feedback:"), and it always offers the tools. A prompt-type hook's
// request (same model, max_tokens and streaming as the main loop) sends an
// empty tools list and ends with its own question; forks end with their
// own instruction. TestSideRequestsAreNotTurns keeps this honest.
func (r messagesRequest) isMainLoop(prompt string) bool {
	if len(r.Tools) == 0 || len(r.Messages) == 0 {
		return false
	}
	last := r.lastUser()
	return strings.HasSuffix(last, prompt) || strings.HasPrefix(last, feedbackPrefix)
}

// newStubAPI starts the stand-in on 127.0.0.1. The k-th main-loop request
// gets turns[k-1]; requests past the script get a plain reply and change
// nothing, which is what an agent that makes no progress looks like.
func newStubAPI(t *testing.T, prompt, statePath string, turns []turn) *stubAPI {
	t.Helper()
	a := &stubAPI{prompt: prompt, state: statePath, turns: turns}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	return a
}

// mainRequests returns the main-loop requests received so far, in order.
func (a *stubAPI) mainRequests() []*apiRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*apiRequest(nil), a.main...)
}

// sideRequests returns every other request received so far.
func (a *stubAPI) sideRequests() []*apiRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*apiRequest(nil), a.side...)
}

func (a *stubAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		a.fail(fmt.Errorf("%s %s: %v", r.Method, r.URL.Path, err))
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := &apiRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}

	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		if err := json.Unmarshal(body, &req.Msg); err != nil {
			a.fail(fmt.Errorf("POST /v1/messages: %v", err))
			writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
			return
		}
		// Side requests get a verdict that prompt-type hooks, the side
		// request a test can provoke at will, read as "condition met".
		text := `{"ok": true}`
		if req.Msg.isMainLoop(a.prompt) {
			text = a.mainTurn(req)
		} else {
			a.recordSide(req)
		}
		msg := reply(a.nextID(), req.Msg.Model, text)
		if req.Msg.Stream {
			streamMessage(w, msg, text)
		} else {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(msg)
		}

	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		a.recordSide(req)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"input_tokens":1}`)

	case r.Method == http.MethodHead || r.Method == http.MethodGet:
		// Reachability probes (2.1.330 sends HEAD /api/hello unless
		// non-essential traffic is disabled): say we are here.
		a.recordSide(req)
		w.WriteHeader(http.StatusOK)

	default:
		a.recordSide(req)
		writeError(w, http.StatusNotFound, "not_found_error", r.Method+" "+r.URL.Path+" is not served by the e2e stand-in")
	}
}

func (a *stubAPI) recordSide(req *apiRequest) {
	a.mu.Lock()
	a.side = append(a.side, req)
	a.mu.Unlock()
}

// nextID returns a fresh message id: Claude Code treats assistant
// messages that share an id as parts of one reply, so turns must not.
func (a *stubAPI) nextID() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ids++
	return fmt.Sprintf("msg_e2e_%03d", a.ids)
}

// mainTurn records a main-loop request, applies its scripted edit and
// returns the text to reply with.
func (a *stubAPI) mainTurn(req *apiRequest) string {
	a.mu.Lock()
	a.main = append(a.main, req)
	n := len(a.main)
	a.mu.Unlock()

	return a.play(a.turns, n, a.state)
}

// streamMessage writes msg, a reply holding one text block, as the
// server-sent events the Messages API streams for it.
func streamMessage(w http.ResponseWriter, msg map[string]any, text string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	start := maps.Clone(msg) // message_start: no content and no stop_reason yet
	start["content"] = []any{}
	start["stop_reason"] = nil
	event("message_start", map[string]any{"type": "message_start", "message": start})
	event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": "text_delta", "text": text}})
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 5}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

// reply is a complete Messages API reply with one text block, as a
// non-streamed request gets it.
func reply(id, model, text string) map[string]any {
	return map[string]any{
		"id":            id,
		"type":          "message",
		"role":          "assistant",
		"model":         model,
		"content":       []any{map[string]any{"type": "text", "text": text}},
		"stop_reason":   "end_turn",
		"stop_sequence": nil,
		"usage":         map[string]any{"input_tokens": 10, "output_tokens": 5},
	}
}

func writeError(w http.ResponseWriter, code int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type":  "error",
		"error": map[string]any{"type": typ, "message": msg},
	})
}
