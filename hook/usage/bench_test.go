package usage

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// BenchmarkReadClaude reads a Claude Code transcript whole, as a first
// stop does: the throughput a first stop on a big transcript gets.
func BenchmarkReadClaude(b *testing.B) {
	var block bytes.Buffer
	for i := 0; block.Len() < 64<<10; i++ {
		fmt.Fprintf(&block, `{"parentUuid":"p%d","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":%q}]},"uuid":"u%d","timestamp":"2026-11-25T10:00:00.000Z","sessionId":"s1"}`+"\n",
			i, i, bytes.Repeat([]byte("=== RUN   TestRateLimiter\n--- PASS: TestRateLimiter (0.01s)\n"), 10), i)
		fmt.Fprintf(&block, `{"parentUuid":"u%d","isSidechain":false,"message":{"model":"claude-opus-5-5","id":"msg_%d","type":"message","role":"assistant","content":[{"type":"text","text":"The tests pass; I recorded it in criteriaStatus and moved on to the load test."}],"stop_reason":"end_turn","usage":{"input_tokens":1200,"cache_creation_input_tokens":300,"cache_read_input_tokens":40000,"output_tokens":180}},"type":"assistant","uuid":"a%d","timestamp":"2026-11-25T10:00:00.000Z","sessionId":"s1"}`+"\n",
			i, i, i)
	}
	data := bytes.Repeat(block.Bytes(), 256) // 16 MiB
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		c, _, err := Read(bytes.NewReader(data), int64(len(data)), Cursor{}, time.Time{}, Claude)
		if err != nil || c.Sum.Total() == 0 {
			b.Fatal(err)
		}
	}
}
