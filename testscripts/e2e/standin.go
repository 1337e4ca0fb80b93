//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// standIn is what every host's stand-in model API shares: its server, the
// script it plays on the state file, the lock over what it records, what
// went wrong inside its handler (which cannot fail the test from its
// goroutine), and the count of replies that gives each a fresh id.
type standIn struct {
	srv   *httptest.Server
	state string // the state file that turns edit
	turns []turn // the script, turn by turn

	mu      sync.Mutex
	errs    []error
	ids     int
	outputs []string // what the agent's commands printed, as the host sent it back
	ending  string   // the text that ends the turn whose command runs
}

// A modelAPI is one host's model API, as its stand-in serves it on top of
// standIn.
type modelAPI interface {
	base() *standIn // the standIn it is built on
	// serve answers r; got is what was received, body and all.
	serve(w http.ResponseWriter, r *http.Request, got received)
	// refuse answers with an error in the API's own shape.
	refuse(w http.ResponseWriter, code int, msg string)
}

// received is one request as a stand-in received it.
type received struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// serveStandIn serves api on 127.0.0.1 until the test ends, playing turns
// on the state file state, and returns it. It reads each request whole
// before api sees it; a body that cannot be read is a failure, refused
// with HTTP 400.
func serveStandIn[A modelAPI](t *testing.T, api A, state string, turns []turn) A {
	s := api.base()
	s.state, s.turns = state, turns
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			s.fail(fmt.Errorf("%s %s: %v", r.Method, r.URL.Path, err))
			api.refuse(w, http.StatusBadRequest, err.Error())
			return
		}
		api.serve(w, r, received{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	}))
	t.Cleanup(s.srv.Close)
	return api
}

func (s *standIn) base() *standIn { return s }

func (s *standIn) URL() string { return s.srv.URL }

// failures returns what went wrong inside the handler.
func (s *standIn) failures() []error { return snapshot(s, &s.errs) }

func (s *standIn) fail(err error) { keep(s, &s.errs, err) }

// keep appends v to *list, one of the stand-in's records, and returns how
// many the list holds now.
func keep[T any](s *standIn, list *[]T, v T) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	*list = append(*list, v)
	return len(*list)
}

// store sets *p, a setting of the stand-in's, to v.
func store[T any](s *standIn, p *T, v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	*p = v
}

// load returns *p, a setting of the stand-in's.
func load[T any](s *standIn, p *T) T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *p
}

// snapshot returns a copy of *list, one of the stand-in's records.
func snapshot[T any](s *standIn, list *[]T) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]T(nil), *list...)
}

// nextID returns a fresh number for a reply's ids, from 1: hosts treat
// replies that share an id as parts of one.
func (s *standIn) nextID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return s.ids
}

// play answers the n-th turn (from 1) of the script: its edit of the state
// file first, as an agent would make it, then its text; past the script, a
// turn that records nothing.
func (s *standIn) play(n int) string {
	if n > len(s.turns) {
		return fmt.Sprintf("Turn %d: nothing new to record.", n)
	}
	tr := s.turns[n-1]
	if tr.edit != nil {
		if err := tr.edit(s.state); err != nil {
			s.fail(fmt.Errorf("turn %d: editing %s: %v", n, s.state, err))
		}
	}
	if tr.text == "" {
		return fmt.Sprintf("Turn %d done.", n)
	}
	return tr.text
}

// command is the shell command of the n-th turn of the script; "" when
// it has none, or n is past the script.
func (s *standIn) command(n int) string {
	if n > len(s.turns) {
		return ""
	}
	return s.turns[n-1].bash
}

// awaitOutput keeps text, a turn's, for the reply to the request that
// brings its command's output back: a turn with a command is two replies,
// the call of the shell tool, then the text that ends the turn.
func (s *standIn) awaitOutput(text string) { store(s, &s.ending, text) }

// gotOutput records what the command printed, as the host sent it back,
// and returns the text that ends the turn.
func (s *standIn) gotOutput(output string) string {
	keep(s, &s.outputs, output)
	return load(s, &s.ending)
}

// toolOutputs returns what the agent's commands printed, in order.
func (s *standIn) toolOutputs() []string { return snapshot(s, &s.outputs) }

// A shellTool is a host's shell tool, as a stand-in calls it: its name,
// and the arguments it requires besides "command" (every host's name for
// the command itself).
type shellTool struct {
	name string
	more map[string]any
}

// args are the call's arguments for running command.
func (s shellTool) args(command string) map[string]any {
	args := maps.Clone(s.more)
	args["command"] = command
	return args
}

// notServed is the message for a request no stand-in serves.
func notServed(r *http.Request) string {
	return r.Method + " " + r.URL.Path + " is not served by the e2e stand-in"
}

// answerJSON answers with v as JSON.
func answerJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// startEvents answers with a stream of server-sent events and returns what
// sends one: data as JSON, under the event name (no event line when "").
func startEvents(w http.ResponseWriter) (send func(event string, data any)) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	return func(event string, data any) {
		b, _ := json.Marshal(data)
		if event != "" {
			fmt.Fprintf(w, "event: %s\n", event)
		}
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// ownGroup runs a host in a process group of its own: hosts start their
// hooks (and some themselves again) as children, so on timeout the whole
// group is killed, and no run waits for ever on pipes a stray child holds.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
}
