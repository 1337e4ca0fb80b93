//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
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
	// bash, when set, is a command the agent runs with its shell tool
	// (every host's stand-in): the tool's
	// output comes back in a request of its own, whose reply ends the turn.
	// Claude Code's gets text with the call, and a plain reply at the end;
	// the others the call alone, then text.
	bash string
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
	messagesStandIn        // the server, the script, its lock and records
	prompt          string // the -p prompt, to recognise the conversation's start

	main []*apiRequest
	side []*apiRequest
}

// messagesStandIn is a stand-in that serves the Messages API: Claude
// Code's (stubAPI) and Copilot CLI's in BYOK mode (copilotAPI).
type messagesStandIn struct{ standIn }

// apiRequest is one request as the stand-in received it.
type apiRequest struct {
	received
	Msg messagesRequest // parsed for POST /v1/messages
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
// latter without the colon after "command"; the binary has it.) 2.1.332
// puts a <system-reminder> preamble, saying the text is a hook's output,
// before feedbackPrefix: make e2e-latest found it.
const feedbackPrefix = "Stop hook feedback:\n"

// stopFeedback returns the reason of a user message that feeds a Stop
// hook's block back to the model, in either release's form.
func stopFeedback(user string) (string, bool) {
	if r, ok := strings.CutPrefix(user, feedbackPrefix); ok {
		return r, true
	}
	if !strings.HasPrefix(user, "<system-reminder>") {
		return "", false
	}
	_, r, ok := strings.Cut(user, "\n"+feedbackPrefix)
	return strings.TrimSuffix(r, "\n</system-reminder>"), ok
}

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
	if strings.HasSuffix(last, prompt) {
		return true
	}
	_, ok := stopFeedback(last)
	return ok
}

// newStubAPI starts the stand-in on 127.0.0.1. The k-th main-loop request
// gets turns[k-1]; requests past the script get a plain reply and change
// nothing, which is what an agent that makes no progress looks like.
func newStubAPI(t *testing.T, prompt, statePath string, turns []turn) *stubAPI {
	return serveStandIn(t, &stubAPI{prompt: prompt}, statePath, turns)
}

// mainRequests returns the main-loop requests received so far, in order.
func (a *stubAPI) mainRequests() []*apiRequest { return snapshot(&a.standIn, &a.main) }

// sideRequests returns every other request received so far.
func (a *stubAPI) sideRequests() []*apiRequest { return snapshot(&a.standIn, &a.side) }

func (a *stubAPI) serve(w http.ResponseWriter, r *http.Request, got received) {
	req := &apiRequest{received: got}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		if !a.decode(w, req) {
			return
		}
		// Side requests get a verdict that prompt-type hooks, the side
		// request a test can provoke at will, read as "condition met".
		text := `{"ok": true}`
		if req.Msg.isMainLoop(a.prompt) {
			// A main-loop request: record it, apply its scripted edit
			// and reply with its text, and its command when it has one.
			n := keep(&a.standIn, &a.main, req)
			text = a.play(n)
			if command := a.command(n); command != "" {
				a.answerTool(w, req, text, "Bash", command)
				return
			}
		} else {
			keep(&a.standIn, &a.side, req)
		}
		a.answer(w, req, text)

	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		keep(&a.standIn, &a.side, req)
		answerJSON(w, http.StatusOK, map[string]any{"input_tokens": 1})

	case r.Method == http.MethodHead || r.Method == http.MethodGet:
		// Reachability probes (2.1.330 sends HEAD /api/hello unless
		// non-essential traffic is disabled): say we are here.
		keep(&a.standIn, &a.side, req)
		w.WriteHeader(http.StatusOK)

	default:
		keep(&a.standIn, &a.side, req)
		a.refuse(w, http.StatusNotFound, notServed(r))
	}
}

// decode parses the body of a Messages API request into req.Msg; what it
// cannot parse is a failure, refused with HTTP 400.
func (s *messagesStandIn) decode(w http.ResponseWriter, req *apiRequest) bool {
	if err := json.Unmarshal(req.Body, &req.Msg); err != nil {
		s.fail(fmt.Errorf("POST /v1/messages: %v", err))
		s.refuse(w, http.StatusBadRequest, err.Error())
		return false
	}
	return true
}

// answer replies to req with one text block, streamed when req asks for
// a stream. Each reply has an id of its own: Claude Code treats assistant
// messages that share an id as parts of one reply, so turns must not.
func (s *messagesStandIn) answer(w http.ResponseWriter, req *apiRequest, text string) {
	msg := reply(fmt.Sprintf("msg_e2e_%03d", s.nextID()), req.Msg.Model, text)
	if req.Msg.Stream {
		streamMessage(w, msg, text)
	} else {
		answerJSON(w, http.StatusOK, msg)
	}
}

// answerTool replies with text, when not "", and a call of the shell
// tool (Claude Code's Bash, Copilot CLI's bash: both take a command and a
// description) running command, streamed, as both hosts ask for it.
func (s *messagesStandIn) answerTool(w http.ResponseWriter, req *apiRequest, text, tool, command string) {
	id := s.nextID()
	msg := reply(fmt.Sprintf("msg_e2e_%03d", id), req.Msg.Model, text)
	input, _ := json.Marshal(map[string]any{"command": command, "description": "run " + command})
	event := startEvents(w)
	start := maps.Clone(msg)
	start["content"] = []any{}
	start["stop_reason"] = nil
	event("message_start", map[string]any{"type": "message_start", "message": start})
	index := 0
	if text != "" {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": text}})
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		index++
	}
	event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
		"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_e2e_%03d", id), "name": tool, "input": map[string]any{}}})
	event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
		"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 5}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

// toolResults are the texts of the tool results the agent sent back.
func (a *stubAPI) toolResults() []string {
	var out []string
	for _, req := range append(a.mainRequests(), a.sideRequests()...) {
		for _, m := range req.Msg.Messages {
			out = append(out, m.toolResults()...)
		}
	}
	return out
}

// toolResults returns the texts of the tool results in m, a user message
// that brings the shell tool's output back.
func (m message) toolResults() []string {
	var blocks []struct {
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
	}
	if m.Role != "user" || json.Unmarshal(m.Content, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "tool_result" {
			var text string
			if json.Unmarshal(b.Content, &text) != nil {
				text = strings.Join(texts(b.Content), "\n")
			}
			out = append(out, text)
		}
	}
	return out
}

// refuse answers with a Messages API error: not_found_error for 404,
// invalid_request_error otherwise.
func (s *messagesStandIn) refuse(w http.ResponseWriter, code int, msg string) {
	typ := "invalid_request_error"
	if code == http.StatusNotFound {
		typ = "not_found_error"
	}
	answerJSON(w, code, map[string]any{
		"type":  "error",
		"error": map[string]any{"type": typ, "message": msg},
	})
}

// streamMessage writes msg, a reply holding one text block, as the
// server-sent events the Messages API streams for it.
func streamMessage(w http.ResponseWriter, msg map[string]any, text string) {
	event := startEvents(w)
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
