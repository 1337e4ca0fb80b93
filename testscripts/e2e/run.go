//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runTimeout bounds one headless session. A session here takes a second or
// two; a hook that hangs or a loop that never ends must fail the test, not
// hang CI.
const runTimeout = 2 * time.Minute

// claudeRun is what one `claude -p` session left behind.
type claudeRun struct {
	result     claudeResult // its --output-format json summary
	stdout     string
	stderr     string
	transcript []transcriptEntry
	debugLog   string // path of the --debug-file log, for failures
}

// claudeResult is the part of the print-mode JSON summary the suite reads.
type claudeResult struct {
	Type           string `json:"type"`
	Subtype        string `json:"subtype"`
	IsError        bool   `json:"is_error"`
	NumTurns       int    `json:"num_turns"`
	Result         string `json:"result"`
	SessionID      string `json:"session_id"`
	TerminalReason string `json:"terminal_reason"`
}

// claudeEnv is the whole environment claude runs with. Nothing is
// inherited but PATH (hooks run through the shell), so neither the
// developer's home, credentials and settings nor the variables of a Claude
// Code session the tests may be run from can leak in.
func claudeEnv(p *project, baseURL string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + p.home,
		"TMPDIR=" + p.tmp, // 2.1.330 keeps sockets and scratch under $TMPDIR
		"ANTHROPIC_BASE_URL=" + baseURL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-dummy",
		// Without this 2.1.330 probes HEAD $ANTHROPIC_BASE_URL/api/hello
		// and makes DNS queries for outside hosts, which a closed network
		// answers slowly or not at all. With it, strace shows no
		// connection but the one to the stand-in.
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		// Belt and braces: the same switches one by one.
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
	}
}

// runClaude runs one headless session in the project: `claude -p prompt`
// under a fixed session id, talking to the stand-in at baseURL.
func runClaude(t *testing.T, claude string, p *project, baseURL, prompt, sessionID string) *claudeRun {
	t.Helper()
	return runClaudeWith(t, claude, p, claudeEnv(p, baseURL), prompt, sessionID)
}

// runClaudeWith is runClaude with the whole environment given and more
// arguments for claude (such as --plugin-dir).
func runClaudeWith(t *testing.T, claude string, p *project, env []string, prompt, sessionID string, args ...string) *claudeRun {
	t.Helper()
	return runClaudeSession(t, claude, p, env, prompt, sessionID, append([]string{"--session-id", sessionID}, args...))
}

// resumeClaude goes on with the session sessionID (--resume), with a
// further prompt from the person.
func resumeClaude(t *testing.T, claude string, p *project, env []string, prompt, sessionID string) *claudeRun {
	t.Helper()
	return runClaudeSession(t, claude, p, env, prompt, sessionID, []string{"--resume", sessionID})
}

func runClaudeSession(t *testing.T, claude string, p *project, env []string, prompt, sessionID string, args []string) *claudeRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()

	run := &claudeRun{debugLog: filepath.Join(p.tmp, "claude-debug.log")}
	cmd := exec.CommandContext(ctx, claude, append([]string{
		"-p", prompt,
		"--output-format", "json",
		"--debug-file", run.debugLog,
	}, args...)...)
	cmd.Dir = p.dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// claude runs the hooks as children: on timeout kill the whole group,
	// and don't wait forever for pipes a stray child still holds.
	ownGroup(cmd)

	start := time.Now()
	err := cmd.Run()
	run.stdout, run.stderr = stdout.String(), stderr.String()
	t.Logf("claude -p ran %v", time.Since(start).Round(time.Millisecond))
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("claude -p did not finish within %v (debug log %s)\nstderr: %s", runTimeout, run.debugLog, run.stderr)
	}
	if err != nil {
		t.Fatalf("claude -p: %v\nstdout: %s\nstderr: %s", err, run.stdout, run.stderr)
	}
	if err := json.Unmarshal(stdout.Bytes(), &run.result); err != nil {
		t.Fatalf("claude -p printed no JSON summary: %v\nstdout: %s\nstderr: %s", err, run.stdout, run.stderr)
	}
	run.transcript = readTranscript(t, p, sessionID)
	return run
}

// transcriptEntry is the part of a transcript line the suite reads: the
// attachments in which 2.1.330 records each hook run.
type transcriptEntry struct {
	Type       string `json:"type"`
	Attachment *struct {
		Type          string          `json:"type"`
		HookEvent     string          `json:"hookEvent"`
		Stdout        string          `json:"stdout"`  // hook_success
		Content       json.RawMessage `json:"content"` // hook_system_message, hook_additional_context
		BlockingError *struct {
			Reason  string `json:"blockingError"`
			Command string `json:"command"`
		} `json:"blockingError"` // hook_blocking_error
	} `json:"attachment"`
}

// readTranscript reads the session's transcript, which Claude Code keeps
// at $HOME/.claude/projects/<project dir, munged>/<session id>.jsonl.
func readTranscript(t *testing.T, p *project, sessionID string) []transcriptEntry {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(p.home, ".claude", "projects", "*", sessionID+".jsonl"))
	if len(paths) != 1 {
		t.Fatalf("want one transcript for session %s under %s, found %q", sessionID, p.home, paths)
	}
	var entries []transcriptEntry
	scanLines(t, paths[0], func(line []byte) {
		var e transcriptEntry
		if json.Unmarshal(line, &e) == nil {
			entries = append(entries, e)
		}
	})
	return entries
}

// hookRun is one run of a hook as the transcript recorded it.
type hookRun struct {
	blocked bool
	reason  string // when blocked
	stdout  string // when not blocked: the hook's own output
}

// hookRuns lists the runs of the event's hooks in order. 2.1.330 records a
// hook that let the turn end as hook_success with its stdout, and one that
// blocked as hook_blocking_error with the reason (not the stdout).
func (r *claudeRun) hookRuns(event string) []hookRun {
	var runs []hookRun
	for _, e := range r.transcript {
		a := e.Attachment
		if a == nil || a.HookEvent != event {
			continue
		}
		switch a.Type {
		case "hook_success":
			runs = append(runs, hookRun{stdout: strings.TrimSpace(a.Stdout)})
		case "hook_blocking_error":
			h := hookRun{blocked: true}
			if a.BlockingError != nil {
				h.reason = a.BlockingError.Reason
			}
			runs = append(runs, h)
		}
	}
	return runs
}

// debugTail returns what the debug log says about each hook run (the
// command, its exit status and its output), for failure messages.
func (r *claudeRun) debugTail() string {
	b, err := os.ReadFile(r.debugLog)
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "finished with status") || strings.Contains(line, ") success:") ||
			strings.Contains(line, "Hook JSON output") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
