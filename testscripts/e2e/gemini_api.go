//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// geminiAPI is a local stand-in for the Gemini API, enough of it for
// Gemini CLI 0.61.0 in headless mode (-p) to run whole sessions
// (PROTOCOL.md §8).
//
// The CLI sends chat requests (streamGenerateContent, one per turn of the
// conversation) and auxiliary ones (generateContent: the model router's
// classifier once per prompt, the LLM loop check from the 30th turn on, the
// next-speaker check; and possibly countTokens). Every request is
// recorded; only chat requests are scripted and counted as turns. The k-th
// chat request, over all the runs of a scenario, gets turns[k-1]; requests
// past the script get a plain reply that changes nothing (each one worded
// differently, or the CLI's loop detection would step in). A turn with a
// command is answered with a call of the shell tool, its edit applied, and
// the request that brings the tool's output back (not a turn: it is kept
// in outputs) with the turn's text. Past maxChat chat requests every chat
// request gets HTTP 400, which ends the run with no further AfterAgent
// call: a hook that never lets go cannot hang a test.
type geminiAPI struct {
	standIn          // the server, the script, its lock and records
	prompts []string // the scenario's -p prompts, to tell them from block reasons
	maxChat int

	chat     []*geminiRequest
	aux      []*geminiRequest
	toolReqs []*geminiRequest // the requests that bring a command's output back
}

// geminiShell is Gemini CLI's shell tool (offered with --yolo).
var geminiShell = shellTool{"run_shell_command", map[string]any{"description": "Run the scripted command."}}

// geminiMaxChat is the default hard cap on chat requests per scenario: far
// above what a scenario means to run (loophook's own continuation limit is
// 50), far below the 100th continuation, where 0.61.0 skips a request.
const geminiMaxChat = 64

// geminiRequest is one request as the stand-in received it.
type geminiRequest struct {
	received
	Model  string          // from the path: models/<model>:<action>
	Action string          // streamGenerateContent, generateContent, countTokens
	Gen    generateRequest // parsed for generateContent and streamGenerateContent
}

// generateRequest is the part of a generateContent request the suite reads.
type generateRequest struct {
	Contents          []geminiContent   `json:"contents"`
	SystemInstruction json.RawMessage   `json:"systemInstruction"`
	Tools             []json.RawMessage `json:"tools"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text             string          `json:"text,omitempty"`
	Thought          bool            `json:"thought,omitempty"`
	FunctionCall     json.RawMessage `json:"functionCall,omitempty"`
	FunctionResponse json.RawMessage `json:"functionResponse,omitempty"`
}

// texts returns the content's text parts, thoughts left out.
func (c geminiContent) texts() []string {
	var out []string
	for _, p := range c.Parts {
		if p.Text != "" && !p.Thought {
			out = append(out, p.Text)
		}
	}
	return out
}

// toolOutput returns what the command printed, when the request brings a
// shell command's output back: its last content holds a functionResponse
// {name, response: {output}}.
func (r generateRequest) toolOutput() (string, bool) {
	if len(r.Contents) == 0 {
		return "", false
	}
	for _, p := range r.Contents[len(r.Contents)-1].Parts {
		var fr struct {
			Response struct {
				Output string `json:"output"`
			} `json:"response"`
		}
		if p.FunctionResponse != nil && json.Unmarshal(p.FunctionResponse, &fr) == nil {
			return fr.Response.Output, true
		}
	}
	return "", false
}

// newUser returns the text parts of the request's last content, the new
// user message the request answers (the prompt, or a hook's reason), or
// nil when the request does not end with one.
func (r generateRequest) newUser() []string {
	if len(r.Contents) == 0 {
		return nil
	}
	last := r.Contents[len(r.Contents)-1]
	if last.Role != "user" {
		return nil
	}
	return last.texts()
}

// newGeminiAPI starts the stand-in on 127.0.0.1.
func newGeminiAPI(t *testing.T, prompts []string, statePath string, turns []turn) *geminiAPI {
	return serveStandIn(t, &geminiAPI{prompts: prompts, maxChat: geminiMaxChat}, statePath, turns)
}

// chatRequests returns the chat requests received so far, in order,
// including any refused past the cap.
func (a *geminiAPI) chatRequests() []*geminiRequest { return snapshot(&a.standIn, &a.chat) }

// auxRequests returns every other request received so far.
func (a *geminiAPI) auxRequests() []*geminiRequest { return snapshot(&a.standIn, &a.aux) }

func (a *geminiAPI) serve(w http.ResponseWriter, r *http.Request, got received) {
	req := &geminiRequest{received: got}
	// /v1beta/models/<model>:<action>, the chat's with ?alt=sse.
	if rest, ok := strings.CutPrefix(r.URL.Path, "/v1beta/models/"); ok {
		req.Model, req.Action, _ = strings.Cut(rest, ":")
	}
	if r.Method != http.MethodPost {
		req.Action = ""
	}

	switch req.Action {
	case "streamGenerateContent", "generateContent":
		if err := json.Unmarshal(req.Body, &req.Gen); err != nil {
			keep(&a.standIn, &a.aux, req)
			a.fail(fmt.Errorf("POST %s: %v", r.URL.Path, err))
			a.refuse(w, http.StatusBadRequest, err.Error())
			return
		}
		if req.Action == "generateContent" {
			keep(&a.standIn, &a.aux, req)
			answerJSON(w, http.StatusOK, geminiReply(auxAnswer))
			return
		}
		if output, ok := req.Gen.toolOutput(); ok {
			keep(&a.standIn, &a.toolReqs, req)
			streamGemini(w, geminiReply(a.gotOutput(output)))
			return
		}
		n, ok := a.chatTurn(req)
		if !ok {
			a.refuse(w, http.StatusBadRequest, "the e2e stand-in's cap of chat requests is reached: a runaway loop")
			return
		}
		text := a.play(n)
		if command := a.command(n); command != "" {
			a.awaitOutput(text)
			call := map[string]any{"name": geminiShell.name, "args": geminiShell.args(command)}
			streamGemini(w, geminiAnswer(map[string]any{"functionCall": call}))
			return
		}
		streamGemini(w, geminiReply(text))

	case "countTokens":
		keep(&a.standIn, &a.aux, req)
		answerJSON(w, http.StatusOK, map[string]any{"totalTokens": 10})

	default:
		keep(&a.standIn, &a.aux, req)
		a.refuse(w, http.StatusNotFound, notServed(r))
	}
}

// auxAnswer answers every auxiliary request 0.61.0 makes, each reading the
// fields it asked for: the router's classifier (pick flash), the LLM loop
// check (no loop, confidence 0) and the next-speaker check (the user: a
// "model" here would add a "Please continue." turn).
const auxAnswer = `{"reasoning":"e2e stand-in","model_choice":"flash",` +
	`"complexity_reasoning":"e2e stand-in","complexity_score":10,"next_speaker":"user",` +
	`"unproductive_state_analysis":"e2e stand-in: no loop","unproductive_state_confidence":0}`

// chatTurn records a chat request and returns its number (from 1); false
// past the cap.
func (a *geminiAPI) chatTurn(req *geminiRequest) (int, bool) {
	n, limit := keep(&a.standIn, &a.chat, req), load(&a.standIn, &a.maxChat)
	if n > limit {
		if n == limit+1 {
			a.fail(fmt.Errorf("chat request %d: past the stand-in's cap of %d, answered HTTP 400 (a hook that never lets the agent stop?)", n, limit))
		}
		return n, false
	}
	return n, true
}

// geminiReply is a whole generateContent answer: one candidate with one
// text part, finished. A streamed reply is the same object, sent as one
// server-sent event.
func geminiReply(text string) map[string]any {
	return geminiAnswer(map[string]any{"text": text})
}

// geminiAnswer is a whole generateContent answer: one candidate with the
// one part given, finished.
func geminiAnswer(part map[string]any) map[string]any {
	return map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP",
			"index":        0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
	}
}

// streamGemini writes a reply as the server-sent events that
// streamGenerateContent?alt=sse answers with.
func streamGemini(w http.ResponseWriter, reply map[string]any) {
	startEvents(w)("", reply)
}

// refuse answers with the Google API error shape; 0.61.0 does not retry a
// 400 and ends the run non-zero.
func (a *geminiAPI) refuse(w http.ResponseWriter, code int, msg string) {
	status := "INVALID_ARGUMENT"
	if code == http.StatusNotFound {
		status = "NOT_FOUND"
	}
	answerJSON(w, code, map[string]any{
		"error": map[string]any{"code": code, "message": msg, "status": status},
	})
}

// ---- What the model received ----

// A chatTurn is one chat request, read: what the new user message in it
// was. Each run starts with a prompt turn, and every turn after it in the
// same run exists because the AfterAgent hook blocked, so its new user
// message is the block's reason (PROTOCOL.md §4).
type chatTurn struct {
	req    *geminiRequest
	prompt bool   // the new user message is one of the scenario's prompts
	text   string // the new user message, its text parts joined with "\n"
	// hookContext is the SessionStart additionalContext the prompt carries
	// in headless mode, as the model got it: "<hook_context>C</hook_context>\n\n"
	// before the prompt, with < and > in C escaped (raw) and not (context).
	rawContext, context string
	hasContext          bool
}

// chatTurns reads the chat requests received so far.
func (a *geminiAPI) chatTurns() []chatTurn {
	var out []chatTurn
	for _, req := range a.chatRequests() {
		parts := req.Gen.newUser()
		ct := chatTurn{req: req, text: strings.Join(parts, "\n")}
		// Headless, the prompt is the last text part of the first user
		// message, after <session_context>, and carries the context.
		if len(parts) > 0 {
			last := parts[len(parts)-1]
			for _, p := range a.prompts {
				if strings.HasSuffix(last, p) {
					ct.prompt = true
					ct.rawContext, ct.hasContext = hookContext(strings.TrimSuffix(last, p))
					ct.context = unescapeHookContext(ct.rawContext)
					break
				}
			}
		}
		out = append(out, ct)
	}
	return out
}

// blockReasons returns the reasons the model received after blocks, in
// order: the new user message of every turn that is not a prompt's.
func (a *geminiAPI) blockReasons() []string {
	var out []string
	for _, ct := range a.chatTurns() {
		if !ct.prompt {
			out = append(out, ct.text)
		}
	}
	return out
}

// hookContext finds "<hook_context>C</hook_context>" in s and returns C
// as sent (escaped).
func hookContext(s string) (string, bool) {
	const open, end = "<hook_context>", "</hook_context>"
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return "", false
	}
	c, _, ok := strings.Cut(rest, end)
	return c, ok
}

// unescapeHookContext undoes what 0.61.0 does to a SessionStart context:
// it turns < and > into &lt; and &gt; (and leaves & alone, so a context
// that itself says "&lt;" cannot be told apart).
func unescapeHookContext(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">").Replace(s)
}

// escapeHookContext is what 0.61.0 makes of a SessionStart context.
func escapeHookContext(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
}
