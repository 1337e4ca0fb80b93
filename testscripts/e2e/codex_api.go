//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// codexTurnCap is how many turn requests the stand-in answers before it
// refuses the rest with HTTP 400. Codex has no cap of its own on a Stop
// hook that keeps blocking (PROTOCOL.md §6): without this a runaway would
// run until the test's timeout. It is above loophook's own continuation
// limit (50), so that the limit, not the stand-in, ends a long loop.
const codexTurnCap = 64

// codexAPI is a local stand-in for the OpenAI Responses API, enough of it
// for `codex exec` (PROTOCOL.md §10). Every request is recorded. Turn
// requests (x-codex-turn-metadata request_kind "turn") are scripted and
// counted: before the k-th is answered, turns[k-1].edit changes the state
// file, as an agent would, and its text is the reply; past the script the
// reply is plain and changes nothing, which is what an agent that makes no
// progress looks like. A turn with a command is answered with a call of
// Codex's shell tool; the request that brings the tool's output back (a
// function_call_output last) is the same turn going on, not counted, and
// gets the turn's text. Past the cap (codexTurnCap unless set), HTTP 400
// ends the run.
type codexAPI struct {
	standIn // the server, the script, its lock and records

	cap     int             // turn requests answered before HTTP 400
	tty     bool            // commands run in a pseudo-terminal
	turn    []*codexRequest // turn requests answered
	refused []*codexRequest // turn requests refused at the cap
	other   []*codexRequest // everything else
}

// codexRequest is one request as the stand-in received it.
type codexRequest struct {
	received
	Meta turnMetadata     // x-codex-turn-metadata
	Req  responsesRequest // parsed for POST /v1/responses
}

// turnMetadata is the part of the x-codex-turn-metadata header the suite
// reads.
type turnMetadata struct {
	RequestKind           string `json:"request_kind"`  // "turn" for the agent's turns
	ThreadSource          string `json:"thread_source"` // "user"; "thread_title" for a title request
	SessionID             string `json:"session_id"`
	TurnID                string `json:"turn_id"`
	HistoryInitialization string `json:"history_initialization"` // "new", "cold_resume"
}

// responsesRequest is the part of a Responses API request the suite reads.
type responsesRequest struct {
	Model        string         `json:"model"`
	Stream       bool           `json:"stream"`
	Instructions *string        `json:"instructions"`
	Input        []responseItem `json:"input"`
}

// responseItem is one item of a request's input: a message (role
// "developer", "user", "assistant"), a tool's output or something else.
type responseItem struct {
	Type    string   `json:"type"`
	Role    string   `json:"role"`
	Content []output `json:"content"`
	// Output is a function_call_output's: a string, or content items.
	Output json.RawMessage `json:"output"`
}

type output struct {
	Type string `json:"type"` // input_text, output_text
	Text string `json:"text"`
}

func (it responseItem) text() string {
	var parts []string
	for _, c := range it.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

func (it responseItem) isMessage(role string) bool {
	return it.Type == "message" && it.Role == role
}

// A Stop hook's block reason R reaches the model as a user message
// <hook_prompt hook_run_id="<label>:<order>:<hooks file>">R</hook_prompt>,
// R XML-escaped (PROTOCOL.md §5). Escaped, R cannot hold "</hook_prompt>".
var hookPromptRE = regexp.MustCompile(`(?s)<hook_prompt hook_run_id="([^"]*)">(.*?)</hook_prompt>`)

// xmlUnescape undoes Codex's escaping of a hook prompt, in one pass (it
// escapes & < > only, and keeps quotes).
var xmlUnescape = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&")

// hookPrompt is one Stop hook block reason as the model got it.
type hookPrompt struct {
	runID  string // e.g. stop:1:/path/.codex/hooks.json
	reason string // unescaped
}

// hookPrompts returns the hook prompts in the request's input from item
// from on, in order.
func (r responsesRequest) hookPrompts(from int) []hookPrompt {
	var out []hookPrompt
	for _, it := range r.Input[from:] {
		if !it.isMessage("user") {
			continue
		}
		for _, c := range it.Content {
			for _, m := range hookPromptRE.FindAllStringSubmatch(c.Text, -1) {
				out = append(out, hookPrompt{runID: m[1], reason: xmlUnescape.Replace(m[2])})
			}
		}
	}
	return out
}

// newHookPrompts returns the hook prompts after the last assistant message:
// why the model is asked to go on in this request (for a request that a
// block caused, one per blocking hook).
func (r responsesRequest) newHookPrompts() []hookPrompt {
	return r.hookPrompts(r.lastAssistant() + 1)
}

// lastAssistant returns the index of the last assistant message, -1 if none.
func (r responsesRequest) lastAssistant() int {
	for i := len(r.Input) - 1; i >= 0; i-- {
		if r.Input[i].isMessage("assistant") {
			return i
		}
	}
	return -1
}

// sessionContexts returns the texts of the SessionStart hooks'
// additionalContext in the request, oldest first. Codex sends each as a
// developer message of its own, after the environment context; its own
// developer messages (the base prompt, skills, permissions, tools) come
// before it. A resumed session's history keeps the earlier contexts.
func (r responsesRequest) sessionContexts() []string {
	var out []string
	seenEnv := false
	for _, it := range r.Input {
		switch {
		case it.isMessage("user") && strings.HasPrefix(it.text(), "<environment_context>"):
			seenEnv = true
		case seenEnv && it.isMessage("developer"):
			out = append(out, it.text())
		}
	}
	return out
}

// toolOutput returns what the shell tool's command printed, when the
// request brings it back: its last item is the call's output.
func (r responsesRequest) toolOutput() (string, bool) {
	if len(r.Input) == 0 || r.Input[len(r.Input)-1].Type != "function_call_output" {
		return "", false
	}
	raw := r.Input[len(r.Input)-1].Output
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return text, true
	}
	var parts []output
	_ = json.Unmarshal(raw, &parts)
	return responseItem{Content: parts}.text(), true
}

// lastUser returns the text of the last user message.
func (r responsesRequest) lastUser() string {
	for i := len(r.Input) - 1; i >= 0; i-- {
		if r.Input[i].isMessage("user") {
			return r.Input[i].text()
		}
	}
	return ""
}

// newCodexAPI starts the stand-in on 127.0.0.1.
func newCodexAPI(t *testing.T, statePath string, turns []turn) *codexAPI {
	return serveStandIn(t, &codexAPI{cap: codexTurnCap}, statePath, turns)
}

// setTurnCap changes how many turn requests are answered before HTTP 400.
func (a *codexAPI) setTurnCap(n int) { store(&a.standIn, &a.cap, n) }

// setTTY has the shell tool run commands in a pseudo-terminal (its tty
// argument), as an agent may ask it to.
func (a *codexAPI) setTTY(on bool) { store(&a.standIn, &a.tty, on) }

func (a *codexAPI) turnCap() int { return load(&a.standIn, &a.cap) }

// turnRequests returns the turn requests answered so far, in order.
func (a *codexAPI) turnRequests() []*codexRequest { return snapshot(&a.standIn, &a.turn) }

// refusedRequests returns the turn requests refused at the cap.
func (a *codexAPI) refusedRequests() []*codexRequest { return snapshot(&a.standIn, &a.refused) }

// otherRequests returns every request that was not a turn request.
func (a *codexAPI) otherRequests() []*codexRequest { return snapshot(&a.standIn, &a.other) }

func (a *codexAPI) serve(w http.ResponseWriter, r *http.Request, got received) {
	req := &codexRequest{received: got}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		keep(&a.standIn, &a.other, req)
		a.refuse(w, http.StatusNotFound, notServed(r))
		return
	}
	if enc := r.Header.Get("Content-Encoding"); enc != "" {
		keep(&a.standIn, &a.other, req)
		a.fail(fmt.Errorf("POST /v1/responses: body encoded %q, the stand-in reads plain JSON", enc))
		a.refuse(w, http.StatusBadRequest, "the e2e stand-in reads plain JSON, not "+enc)
		return
	}
	if err := json.Unmarshal(req.Body, &req.Req); err != nil {
		keep(&a.standIn, &a.other, req)
		a.fail(fmt.Errorf("POST /v1/responses: %v", err))
		a.refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	if m := r.Header.Get("x-codex-turn-metadata"); m != "" {
		if err := json.Unmarshal([]byte(m), &req.Meta); err != nil {
			a.fail(fmt.Errorf("x-codex-turn-metadata: %v: %s", err, m))
		}
	}

	var text, command string
	output, isOutput := req.Req.toolOutput()
	switch {
	case req.Meta.RequestKind != "turn":
		// Not the agent's turn: the interactive UI's title request wants
		// {"title": ...}; exec was seen to send nothing else.
		keep(&a.standIn, &a.other, req)
		text = `{"title":"e2e"}`
	case isOutput:
		// The same turn goes on with its command's output: not a turn of
		// the script, and no hook ran since.
		keep(&a.standIn, &a.other, req)
		text = a.gotOutput(output)
	default:
		var ok bool
		if text, command, ok = a.agentTurn(req); !ok {
			a.refuse(w, http.StatusBadRequest, fmt.Sprintf(
				"the e2e stand-in answers at most %d turns: a runaway loop", a.turnCap()))
			return
		}
	}
	if !req.Req.Stream {
		a.fail(fmt.Errorf("POST /v1/responses: stream is false, the stand-in only streams"))
	}
	a.stream(w, text, command)
}

// agentTurn records a turn request, applies its scripted edit and returns
// the text to reply with, and the command to run first ("" when none);
// false past the cap.
func (a *codexAPI) agentTurn(req *codexRequest) (text, command string, ok bool) {
	a.mu.Lock()
	if len(a.turn) >= a.cap {
		a.refused = append(a.refused, req)
		a.mu.Unlock()
		return "", "", false
	}
	a.turn = append(a.turn, req)
	n := len(a.turn)
	a.mu.Unlock()

	text, command = a.play(n), a.command(n)
	if command != "" {
		a.awaitOutput(text)
	}
	return text, command, true
}

// stream writes a reply as the server-sent events of a streamed Responses
// API reply: one assistant message with text, or, when command is set, a
// call of Codex's shell tool (exec_command, a function) running it.
func (a *codexAPI) stream(w http.ResponseWriter, text, command string) {
	id := a.nextID()
	respID, itemID := fmt.Sprintf("resp_e2e_%d", id), fmt.Sprintf("msg_e2e_%d", id)

	send := startEvents(w)
	event := func(data map[string]any) { send(data["type"].(string), data) }
	item := func(status string, content []any) map[string]any {
		return map[string]any{"type": "message", "id": itemID, "role": "assistant", "status": status, "content": content}
	}
	done := []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}
	event(map[string]any{"type": "response.created", "response": map[string]any{"id": respID}})
	if command != "" {
		args, _ := json.Marshal(map[string]any{"cmd": command, "tty": load(&a.standIn, &a.tty)})
		item = func(status string, _ []any) map[string]any {
			return map[string]any{"type": "function_call", "id": itemID, "call_id": fmt.Sprintf("call_e2e_%d", id),
				"name": "exec_command", "arguments": string(args), "status": status}
		}
	}
	event(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item("in_progress", []any{})})
	if command == "" {
		event(map[string]any{"type": "response.output_text.delta", "item_id": itemID, "output_index": 0,
			"content_index": 0, "delta": text})
	}
	event(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item("completed", done)})
	event(map[string]any{"type": "response.completed", "response": map[string]any{
		"id":    respID,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15},
	}})
}

// refuse answers with a Responses API error.
func (a *codexAPI) refuse(w http.ResponseWriter, code int, msg string) {
	answerJSON(w, code, map[string]any{
		"error": map[string]any{"type": "invalid_request_error", "message": msg},
	})
}
