//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// copilotAPI is a local stand-in for the model provider of Copilot CLI
// 1.0.102 in BYOK mode with COPILOT_PROVIDER_TYPE=anthropic: the
// Messages API, as api.go serves it to Claude Code, with the turns told
// apart by the header the CLI sets on them.
//
// The CLI marks every request it makes with x-interaction-type;
// conversation-user is a turn of the conversation: the prompt's request
// and one per continuation after an agentStop block (a follow-up after a
// tool result has none). Each turn gets the next scripted turn, across
// all the runs of a session, its edit applied to the state file before
// the reply, as an agent would have done it; a turn with a command gets a
// call of the CLI's bash tool, and the follow-up that brings its output
// the turn's text. Every request is recorded.
//
// A run that asks more than limit times is answered HTTP 400 with an
// error object, which 1.0.102 neither retries nor follows with another
// agentStop: it exits 1. A hook that never lets go cannot then hold a
// test; the CLI's own cap (8 continuations) ends a turn well before.
type copilotAPI struct {
	messagesStandIn     // the server, the script, its lock and records
	limit           int // model requests one run may make

	run    int // the run in progress (0: none); see beginRun
	reqs   []*copilotRequest
	served int // conversation turns answered, over all runs
}

// copilotRequestLimit is the stand-in's default limit: the CLI's cap
// allows 9 requests in a turn, and a scripted command adds one.
const copilotRequestLimit = 12

// copilotTurn is the x-interaction-type of a conversation turn.
const copilotTurn = "conversation-user"

// copilotRequest is one request as the stand-in received it.
type copilotRequest struct {
	apiRequest
	Run         int    // the run that sent it
	Interaction string // x-interaction-type
	Refused     bool   // answered HTTP 400: past the limit
}

func (r *copilotRequest) isTurn() bool { return r.Interaction == copilotTurn }

// newCopilotAPI starts the stand-in on 127.0.0.1. The k-th conversation
// turn gets turns[k-1]; turns past the script get a plain reply and change
// nothing, which is what an agent that makes no progress looks like.
func newCopilotAPI(t *testing.T, statePath string, turns []turn) *copilotAPI {
	return serveStandIn(t, &copilotAPI{limit: copilotRequestLimit}, statePath, turns)
}

// beginRun and endRun bracket a run: requests are filed under it, and the
// limit counts within it.
func (a *copilotAPI) beginRun(n int) { store(&a.standIn, &a.run, n) }

func (a *copilotAPI) endRun() { a.beginRun(0) }

// requestsOf returns the requests run n sent, in order.
func (a *copilotAPI) requestsOf(n int) []*copilotRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []*copilotRequest
	for _, r := range a.reqs {
		if r.Run == n {
			out = append(out, r)
		}
	}
	return out
}

func (a *copilotAPI) serve(w http.ResponseWriter, r *http.Request, got received) {
	req := &copilotRequest{
		apiRequest:  apiRequest{received: got},
		Interaction: r.Header.Get("X-Interaction-Type"),
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		a.record(req)
		a.refuse(w, http.StatusNotFound, notServed(r))
		return
	}
	n := a.record(req)
	if !a.decode(w, &req.apiRequest) {
		return
	}
	if n > a.limit {
		req.Refused = true
		a.refuse(w, http.StatusBadRequest, fmt.Sprintf("e2e stand-in: more than %d model requests in one run", a.limit))
		return
	}
	text := "Done."
	msgs := req.Msg.Messages
	switch {
	case req.isTurn():
		var n int
		n, text = a.nextTurn()
		if command := a.command(n); command != "" {
			a.awaitOutput(text)
			a.answerTool(w, &req.apiRequest, "", "bash", command)
			return
		}
	case len(msgs) > 0 && len(msgs[len(msgs)-1].toolResults()) > 0:
		// The follow-up after a tool call: it brings the output.
		text = a.gotOutput(strings.Join(msgs[len(msgs)-1].toolResults(), "\n"))
	}
	a.answer(w, &req.apiRequest, text)
}

// record files req under the run in progress and returns how many
// requests that run has sent so far.
func (a *copilotAPI) record(req *copilotRequest) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	req.Run = a.run
	a.reqs = append(a.reqs, req)
	n := 0
	for _, r := range a.reqs {
		if r.Run == a.run {
			n++
		}
	}
	return n
}

// nextTurn applies the next scripted turn's edit and returns its number
// (from 1) and text.
func (a *copilotAPI) nextTurn() (int, string) {
	a.mu.Lock()
	a.served++
	n := a.served
	a.mu.Unlock()

	return n, a.play(n)
}

// copilotDatetime is how 1.0.102 opens every user message it sends, the
// prompt and each block reason alike:
// "<current_datetime>2026-11-23T07:01:20.914+00:00</current_datetime>\n\n".
var copilotDatetime = regexp.MustCompile(`^<current_datetime>[^<]*</current_datetime>\n\n`)

// newUserText returns what the request brings the model that is new: the
// text of its last message, a user message, without the date stamp. For
// the prompt's turn that is the prompt; for a continuation, the block's
// reason, as the hook wrote it.
func (r *copilotRequest) newUserText() (string, error) {
	msgs := r.Msg.Messages
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != "user" {
		return "", fmt.Errorf("the request does not end with a user message")
	}
	blocks := texts(msgs[len(msgs)-1].Content)
	if len(blocks) == 0 {
		return "", fmt.Errorf("the last user message has no text")
	}
	last := blocks[len(blocks)-1]
	stamp := copilotDatetime.FindString(last)
	if stamp == "" {
		return "", fmt.Errorf("the last user message does not open with <current_datetime>: %q", last)
	}
	return strings.TrimPrefix(last, stamp), nil
}

// userTexts returns the date-stamped text of every user message of the
// request, without the stamp: the history of prompts and block reasons.
func (r *copilotRequest) userTexts() []string {
	var out []string
	for _, m := range r.Msg.Messages {
		if m.Role != "user" {
			continue
		}
		for _, b := range texts(m.Content) {
			if stamp := copilotDatetime.FindString(b); stamp != "" {
				out = append(out, strings.TrimPrefix(b, stamp))
			}
		}
	}
	return out
}

// sessionContext returns the sessionStart hooks' additionalContext as the
// model got it: the text blocks of the conversation's first user message
// that come before the prompt's own (date-stamped) block. The CLI joins
// several hooks' contexts with "\n\n" into one block; ok is false when
// there is none.
func (r *copilotRequest) sessionContext() (ctx string, ok bool) {
	msgs := r.Msg.Messages
	if len(msgs) == 0 || msgs[0].Role != "user" {
		return "", false
	}
	var before []string
	for _, b := range texts(msgs[0].Content) {
		if copilotDatetime.MatchString(b) {
			break
		}
		before = append(before, b)
	}
	return strings.Join(before, "\n\n"), len(before) > 0
}
