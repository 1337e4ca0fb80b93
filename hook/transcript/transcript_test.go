package transcript

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Seeds beside the corpus files in testdata/fuzz/FuzzTranscriptTail/: the
// shapes the fuzzer should start from.
var transcriptSeeds = []string{
	`{"type":"user","message":{"role":"user","content":"go"}}` + "\n" +
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"done <loop-complete>"}]}}` + "\n",
	`{"type":"assistant","message":{"content":[{"type":"text","text":"a"},{"type":"thinking","thinking":"b"},{"type":"text","text":"c"}]}}`,
	`{"type":"assistant","message":{"content":[{"type":"text","text":"old"}]}}` + "\n" +
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"}]}}` + "\n" +
		`{"type":"system","subtype":"stop_hook_summary"}` + "\n",
	`{"type":"assistant","message":{"content":[{"type":"text","text":"crlf"}]}}` + "\r\n\r\n",
	`{"type":"user","message":{"content":"\"assistant\""}}`,
	"\n\n\n",
	``,
}

// FuzzTranscriptTail: reading backwards in blocks finds what a plain forward
// reading finds, for transcripts within the look-back limits. pad appends a
// filler line so that block boundaries fall anywhere inside data.
func FuzzTranscriptTail(f *testing.F) {
	for _, s := range transcriptSeeds {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(tailBlock-len(s)/2))
	}
	f.Fuzz(func(t *testing.T, data []byte, pad uint16) {
		input := data
		if pad > 0 {
			input = append(bytes.Clone(data), '\n')
			input = append(input, bytes.Repeat([]byte("x"), int(pad))...)
		}
		want, found := forwardLastAssistantText(input)
		got, err := scanBack(bytes.NewReader(input), int64(len(input)), assistantText)
		switch {
		case found && err != nil:
			t.Fatalf("want %q, got error %v", want, err)
		case found && got != want:
			t.Fatalf("want %q, got %q", want, got)
		case !found && err == nil:
			t.Fatalf("want no message, got %q", got)
		}
	})
}

// forwardLastAssistantText is the reference: every line, first to last,
// keeping the last assistant text.
func forwardLastAssistantText(data []byte) (text string, found bool) {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) > maxLine {
			continue
		}
		if t, ok := assistantText(line); ok {
			text, found = t, true
		}
	}
	return text, found
}

func BenchmarkTranscriptTail(b *testing.B) {
	line := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("x", 400) + `"}}` + "\n"
	last := `{"type":"assistant","message":{"content":[{"type":"text","text":"done <loop-complete>"}]}}` + "\n"
	for _, size := range []int{1 << 10, 64 << 20} {
		path := filepath.Join(b.TempDir(), "t.jsonl")
		var buf bytes.Buffer
		for buf.Len() < size {
			buf.WriteString(line)
		}
		buf.WriteString(last)
		must(b, os.WriteFile(path, buf.Bytes(), 0o644))
		b.Run(fmt.Sprintf("size=%dKiB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if text, err := LastAssistantText(path); err != nil || text == "" {
					b.Fatal(text, err)
				}
			}
		})
	}
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
