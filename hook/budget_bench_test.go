package hook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/transcript"
	"github.com/loophook/loophook/hook/usage"
)

// budgetProject writes a git project with a loop, an approved token
// budget and a Claude Code transcript of about size bytes (turns of a
// working session, each reply with its usage, dated after the loop
// began), and returns the stop's input.
func budgetProject(tb testing.TB, size int64) []byte {
	dir := tb.TempDir()
	must(tb, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	must(tb, os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	must(tb, os.MkdirAll(filepath.Join(dir, ".loop"), 0o755))
	must(tb, os.WriteFile(filepath.Join(dir, stateFile), stateJSON(20), 0o644))
	must(tb, os.WriteFile(filepath.Join(dir, config.File), []byte(`{"budget": {"tokens": 1000000000000}}`), 0o644))
	_, err := config.Approve(dir)
	must(tb, err)

	path := filepath.Join(tb.TempDir(), "transcript.jsonl")
	f, err := os.Create(path)
	must(tb, err)
	w := bufio.NewWriterSize(f, 4<<20)
	at := time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano)
	var block bytes.Buffer
	for i := 0; block.Len() < 64<<10; i++ {
		fmt.Fprintf(&block, `{"parentUuid":"p%d","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":%q}]},"uuid":"u%d","timestamp":%q,"sessionId":"s1"}`+"\n",
			i, i, bytes.Repeat([]byte("=== RUN   TestRateLimiter\n--- PASS: TestRateLimiter (0.01s)\n"), 10), i, at)
		fmt.Fprintf(&block, `{"parentUuid":"u%d","isSidechain":false,"message":{"model":"claude-opus-5-5","id":"msg_%d","type":"message","role":"assistant","content":[{"type":"text","text":"The tests pass; I recorded it in criteriaStatus and moved on to the load test."}],"stop_reason":"end_turn","usage":{"input_tokens":1200,"cache_creation_input_tokens":300,"cache_read_input_tokens":40000,"output_tokens":180}},"type":"assistant","uuid":"a%d","timestamp":%q,"sessionId":"s1"}`+"\n",
			i, i, i, at)
	}
	for written := int64(0); written+int64(block.Len()) <= size || written == 0; written += int64(block.Len()) {
		_, err := w.Write(block.Bytes())
		must(tb, err)
	}
	last := "All criteria are verified."
	fmt.Fprintf(w, `{"parentUuid":"x","isSidechain":false,"message":{"id":"msg_last","type":"message","role":"assistant","content":[{"type":"text","text":%q}],"usage":{"input_tokens":10,"output_tokens":5}},"type":"assistant","uuid":"last","timestamp":%q,"sessionId":"s1"}`+"\n", last, at)
	must(tb, w.Flush())
	must(tb, f.Close())
	in, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": dir, "hook_event_name": "Stop", "stop_hook_active": false,
		"transcript_path": path, "last_assistant_message": last})
	return in
}

// BenchmarkBudgetStop is a stop of a loop with a token budget, after a
// first stop read the transcript: it reads only what was written since,
// so a 1 GiB transcript costs what a 1 KiB one does. The first stop, which
// reads the whole transcript once, is reported as first-ms.
//
//	go test -run '^$' -bench BudgetStop ./hook/
func BenchmarkBudgetStop(b *testing.B) {
	for _, size := range []int64{1 << 10, 1 << 30} {
		b.Run(fmt.Sprintf("transcript=%s", sizeName(size)), func(b *testing.B) {
			in := budgetProject(b, size)
			w := host("ok")
			w.Usage = func(in Input) usage.Source {
				// Claude Code's, as hook/host has it.
				return usage.Source{Path: in.TranscriptPath, Format: usage.Claude, Await: func() bool {
					text, err := transcript.LastAssistantText(in.TranscriptPath)
					return err == nil && strings.TrimSpace(text) == strings.TrimSpace(*in.LastAssistantMessage)
				}}
			}
			o := Options{Host: w, Limits: criteria.DefaultLimits()}
			var out bytes.Buffer
			start := time.Now()
			stop(o, bytes.NewReader(in), &out, io.Discard)
			first := time.Since(start)
			if !bytes.Contains(out.Bytes(), []byte(`"ok":false`)) {
				b.Fatalf("the first stop answered %s, want a block", out.Bytes())
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				stop(o, bytes.NewReader(in), io.Discard, io.Discard)
			}
			// After the loop: ResetTimer drops metrics reported before.
			b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
		})
	}
}

func sizeName(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%dKiB", n>>10)
}
