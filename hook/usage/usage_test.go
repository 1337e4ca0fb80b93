package usage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func sample(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func read(t *testing.T, data []byte, c Cursor, f Format) (Cursor, bool) {
	t.Helper()
	next, rewritten, err := Read(bytes.NewReader(data), int64(len(data)), c, time.Time{}, f)
	if err != nil {
		t.Fatal(err)
	}
	return next, rewritten
}

// The hosts' real files, as their samples hold them: each response of the
// stand-in model was 10 tokens in, 5 out.
func TestSums(t *testing.T) {
	for _, tc := range []struct {
		file  string
		f     Format
		total int64
	}{
		{"claude.jsonl", Claude, 9 * 15},
		{"codex.jsonl", Codex, 4 * 15},
		{"gemini.jsonl", Gemini, 2 * 15},
		{"copilot.jsonl", Copilot, 3 * 15},
		{"qwen.jsonl", Qwen, 3 * 15}, // its first response recorded 0
		{"pi.jsonl", Pi, 4 * 15},
	} {
		t.Run(tc.f.Name, func(t *testing.T) {
			data := sample(t, tc.file)
			c, _ := read(t, data, Cursor{}, tc.f)
			if c.Sum.Total() != tc.total || c.Offset != int64(len(data)) {
				t.Errorf("sum %+v (%d), offset %d of %d; want %d", c.Sum, c.Sum.Total(), c.Offset, len(data), tc.total)
			}
			if c.Sum.Output*3 != c.Sum.Total() {
				t.Errorf("sum %+v: want a third of it output", c.Sum)
			}
		})
	}
}

// Read line by line as the host writes it, a stop after each line (and
// after half a line), the sum is the sum of one read.
func TestIncremental(t *testing.T) {
	for _, f := range []Format{Claude, Codex, Gemini, Copilot, Qwen, Pi} {
		data := sample(t, f.Name+".jsonl")
		whole, _ := read(t, data, Cursor{}, f)
		var c Cursor
		for end := 0; end < len(data); {
			nl := bytes.IndexByte(data[end:], '\n')
			half := end + nl/2
			var rewritten bool
			c, rewritten = read(t, data[:half], c, f)
			if c.Offset != int64(end) || rewritten {
				t.Fatalf("%s: half a line read: offset %d, want %d (rewritten %v)", f.Name, c.Offset, end, rewritten)
			}
			end += nl + 1
			c, _ = read(t, data[:end], c, f)
		}
		if c.Sum != whole.Sum {
			t.Errorf("%s: line by line %+v, whole %+v", f.Name, c.Sum, whole.Sum)
		}
	}
}

// A message written on several lines, each with its usage, counts once,
// with the usage of its last line.
func TestRepeatedMessageCountsOnce(t *testing.T) {
	line := func(id string, out int) string {
		return `{"type":"assistant","timestamp":"2026-11-23T06:00:00Z","message":{"id":"` + id + `","usage":{"input_tokens":100,"output_tokens":` + strconv.Itoa(out) + `}}}` + "\n"
	}
	data := []byte(line("msg_1", 1) + line("msg_1", 7) + `{"type":"user"}` + "\n" + line("msg_1", 9) + line("msg_2", 5))
	c, _ := read(t, data, Cursor{}, Claude)
	if c.Sum.Total() != 100+9+100+5 {
		t.Errorf("sum %+v, want msg_1 once with 9 out, msg_2 once", c.Sum)
	}
	// Also when the repeat comes after a stop read the first line.
	c, _ = read(t, data[:len(line("msg_1", 1))], Cursor{}, Claude)
	c, _ = read(t, data, c, Claude)
	if c.Sum.Total() != 214 {
		t.Errorf("sum %+v across reads, want 214", c.Sum)
	}
}

// A truncated file, or one rewritten with other bytes, is read again from
// its start, and says so: what was counted stays counted, and only what is
// later than the last response counted is added.
func TestRewritten(t *testing.T) {
	data := sample(t, "claude.jsonl")
	c, _ := read(t, data, Cursor{}, Claude)
	lines := bytes.SplitAfter(data, []byte("\n"))
	later := []byte(`{"type":"assistant","timestamp":"2026-12-01T00:00:00Z","message":{"id":"msg_10","usage":{"input_tokens":10,"output_tokens":5}}}` + "\n")
	short := append(bytes.Join(lines[:8], nil), later...) // two messages, and a new one
	got, rewritten := read(t, short, c, Claude)
	if !rewritten || got.Sum.Total() != 150 || got.Offset != int64(len(short)) {
		t.Errorf("truncated: rewritten %v, sum %d, offset %d; want true, 150, %d", rewritten, got.Sum.Total(), got.Offset, len(short))
	}
	// Longer, but other bytes before the cursor: a compaction that
	// rewrote the file and went on.
	other := append(bytes.Join(lines[2:], nil), later...)
	got, rewritten = read(t, other, c, Claude)
	if !rewritten || got.Sum.Total() != 150 {
		t.Errorf("rewritten: %v, sum %d; want true, 150", rewritten, got.Sum.Total())
	}
	// Read once: the next read goes on from there.
	if again, rewritten := read(t, other, got, Claude); rewritten || again.Sum != got.Sum {
		t.Errorf("read again: rewritten %v, sum %d; want false, 150", rewritten, again.Sum.Total())
	}
	// Appended to only: not rewritten, and the last message written again
	// counts once.
	got, rewritten = read(t, append(bytes.Clone(data), lines[28]...), c, Claude)
	if rewritten || got.Sum.Total() != 135 {
		t.Errorf("appended: rewritten %v, sum %d; want false, 135", rewritten, got.Sum.Total())
	}
}

// A malformed line, or one too long to decode, is skipped; the lines after
// it count.
func TestMalformedLineSkipped(t *testing.T) {
	data := sample(t, "codex.jsonl")
	lines := bytes.SplitAfter(data, []byte("\n"))
	var b bytes.Buffer
	for i, l := range lines {
		if i == 12 { // the first token_usage_record, broken
			b.Write(l[:len(l)/2])
			b.WriteString("\n")
			continue
		}
		b.Write(l)
		if i == 20 {
			b.WriteString(`{"type":"token_usage_record","payload":{"usage":` + strings.Repeat(" ", maxLine) + `{"input_tokens":1000}}}` + "\n")
		}
	}
	c, _ := read(t, b.Bytes(), Cursor{}, Codex)
	if c.Sum.Total() != 45 || c.Offset != int64(b.Len()) {
		t.Errorf("sum %d, offset %d of %d; want 45 to the end", c.Sum.Total(), c.Offset, b.Len())
	}
}

// A line longer than the read buffer, and shorter than maxLine, counts; a
// longer one is skipped, and so is a last one without its newline, read
// from its start next time however long it is.
func TestLongLines(t *testing.T) {
	line := func(text string, in int) string {
		return `{"type":"assistant","message":{"id":"m` + strconv.Itoa(in) + `","content":"` + text + `","usage":{"input_tokens":` + strconv.Itoa(in) + `}},"timestamp":"2026-11-23T06:00:00Z"}` + "\n"
	}
	data := line("short", 1) + line(strings.Repeat("x", 1<<20), 10) + line(strings.Repeat("y", maxLine), 100) + line("after", 1000)
	c, _ := read(t, []byte(data), Cursor{}, Claude)
	if c.Sum.Input != 1011 || c.Offset != int64(len(data)) {
		t.Errorf("sum %d, offset %d of %d; want 1011 to the end", c.Sum.Input, c.Offset, len(data))
	}
	unfinished := data + strings.TrimSuffix(line(strings.Repeat("z", maxLine), 5), "\n")
	c, _ = read(t, []byte(unfinished), Cursor{}, Claude)
	if c.Sum.Input != 1011 || c.Offset != int64(len(data)) {
		t.Errorf("unfinished: sum %d, offset %d; want 1011 at %d", c.Sum.Input, c.Offset, len(data))
	}
}

// A read of many buffers, decoded by several workers, counts in the
// file's order: a response written again across a buffer's end counts
// once, with its last usage; a response past the time a rewritten file's
// floor holds counts; an unreadable line between them counts nothing.
func TestManyBuffersInOrder(t *testing.T) {
	var b bytes.Buffer
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	for i := range 20000 {
		id := strconv.Itoa(i / 3) // three lines a response, each one more
		fmt.Fprintf(&b, `{"type":"assistant","timestamp":%q,"message":{"id":"m%s","content":[{"type":"text","text":%q}],"usage":{"input_tokens":%d,"output_tokens":%d}}}`+"\n",
			at.Add(time.Duration(i)*time.Millisecond).Format(time.RFC3339Nano), id, strings.Repeat("t", i%300), i%3+1, i%7)
		if i%101 == 0 {
			b.WriteString(`{"type":"assistant","message":{"id":"broken","usage":{"input_tokens":1000}}` + "\n")
		}
		if i%97 == 0 {
			fmt.Fprintf(&b, `{"type":"user","message":{"content":%q}}`+"\n", strings.Repeat("output ", i%5000))
		}
	}
	data := b.Bytes()
	var want Cursor
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if bytes.Contains(line, Claude.Marker) {
			Claude.Parse(line, func(e Entry) { want.add(e, time.Time{}) })
		}
	}
	if want.Sum.Input != 20000/3*3+2 {
		t.Fatalf("the reference counts %d input tokens", want.Sum.Input)
	}
	for _, procs := range []int{1, 2, 4} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		got, _ := read(t, data, Cursor{}, Claude)
		if got.Sum != want.Sum || got.Last != want.Last || !slices.Equal(got.Recent, want.Recent) {
			t.Errorf("GOMAXPROCS %d: %+v (last %v), want %+v (last %v)", procs, got.Sum, got.Last, want.Sum, want.Last)
		}
	}
}

// A read from a cursor that is not at a part's boundary counts each line
// after it once: the first part ends where the second begins. Lines with
// no id, which nothing dedupes, show a line counted twice.
func TestReadFromUnalignedCursor(t *testing.T) {
	var b bytes.Buffer
	for b.Len() < 3*int(partSize) {
		b.WriteString(`{"type":"assistant","message":{"usage":{"input_tokens":1}}}` + "\n")
	}
	data := b.Bytes()
	whole, _ := read(t, data, Cursor{}, Claude)
	for _, at := range []int{61, 1000, int(partSize) - 100, int(partSize) + 7} {
		at = bytes.IndexByte(data[at:], '\n') + at + 1
		first, _ := read(t, data[:at], Cursor{}, Claude)
		second, _ := read(t, data, first, Claude)
		if second.Sum != whole.Sum || second.Offset != whole.Offset {
			t.Errorf("from %d: %+v at %d, whole %+v at %d", at, second.Sum, second.Offset, whole.Sum, whole.Offset)
		}
	}
}

// Responses written before the loop began are not counted.
func TestSince(t *testing.T) {
	data := sample(t, "copilot.jsonl")
	var timestamps []time.Time
	for _, l := range bytes.Split(data, []byte("\n")) {
		Copilot.Parse(l, func(e Entry) { timestamps = append(timestamps, e.At) })
	}
	if len(timestamps) != 3 {
		t.Fatalf("%d usage records, want 3", len(timestamps))
	}
	c, _, err := Read(bytes.NewReader(data), int64(len(data)), Cursor{}, timestamps[1], Copilot)
	if err != nil || c.Sum.Total() != 30 {
		t.Errorf("since the second: %d (%v), want 30", c.Sum.Total(), err)
	}
}

func TestDroid(t *testing.T) {
	u, ok := Droid(sample(t, "droid.settings.json"))
	if !ok || u.Total() != 45 || u.Input != 30 {
		t.Errorf("%+v %v, want 30 in 15 out", u, ok)
	}
	if _, ok := Droid([]byte(`{"model":"x"}`)); ok {
		t.Error("no usage read as usage")
	}
}

// claudeSeeds are lines the fast reading must read as encoding/json
// does: the hosts' own, a usage inside the content, an escaped quote
// before "usage" in a key (issue 31), keys in another case, repeats.
func claudeSeeds(t interface{ Fatal(...any) }) [][]byte {
	data, err := os.ReadFile(filepath.Join("testdata", "claude.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	for _, l := range []string{
		`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_1","input":{"usage":{"input_tokens":999}}}],"id":"msg_x","usage":{"input_tokens":3}},"timestamp":"2026-11-23T06:00:00Z"}`,
		`{"message":{"id":"msg_y","content":"a \"usage\":{\"input_tokens\":7}","usage":{"input_tokens":4,"cache_creation":{"ephemeral_5m_input_tokens":1},"output_tokens":2}},"type":"assistant","timestamp":"2026-11-23T06:00:01Z"}`,
		`{"type":"assistant","message":{"id":"msg_z","usage":{"input_tokens":3}},"x\"usage":{"input_tokens":999},"timestamp":"2026-11-23T06:00:02Z"}`,
		`{"type":"assistant","message":{"id":"msg_z","usage":{"input_tokens":3}},"Message":{"usage":{"input_tokens":999}}}`,
		`{"type":"assistant","message":{"id":"msg_z","usage":{"input_tokens":3},"usage":{"output_tokens":5}}}`,
		`{"type":"assistant","message":{"id":"msg_z","usage":{"INPUT_TOKENS":3,"output_tokens":1.0}}}`,
		`{"type":"assistant","message":{"id":"msg_z","usage":{"input_tokens":3}},"type":"user"}`,
		`{"type":"assistant","message":{"id":"msg_z","usage":{"input_tokens":3}}} x`,
		`{"type":"assist\u0061nt","message":{"id":"m\u00e9","usage":null}}`,
		`{"type":"assistant","message":{"id":"msg_z","content":"\u001b[1A","usage":{"input_tokens":-3,"output_tokens":9223372036854775808}}}`,
		// Numbers encoding/json reads otherwise, or not as an int64.
		`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":-0,"output_tokens":-9223372036854775808,"cache_read_input_tokens":999999999999999999}}}`,
		`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":1e2}}}`,
		`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":01}}}`,
		`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":99999999999999999999}}}`,
		`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":null,"output_tokens":2}}}`,
		// Keys that fold to a wanted one beyond ASCII: K (Kelvin), ſ (long s).
		"{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"usage\":{\"input_to\u212aens\":1,\"cache_read_input_tokenſ\":5}}}",
		"{\"type\":\"assistant\",\"meſſage\":{\"id\":\"m\",\"usage\":{\"input_tokens\":9}},\"message\":{\"id\":\"n\",\"usage\":{\"input_tokens\":1}}}",
		// A null that leaves a value as it was; an escaped id.
		`{"type":"assistant","type":null,"message":{"id":"m","id":null,"usage":{"input_tokens":1}},"timestamp":null}`,
		`{"type":"assistant","message":{"id":"m\/n","usage":{"input_tokens":1}}}`,
		// White space everywhere, a BOM, NUL, invalid UTF-8, deep nesting.
		" \t{ \"type\" :\r\"assistant\" ,\n\"message\" : { \"usage\" : { \"input_tokens\" : 1 } } }\r\n",
		"\ufeff{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":1}}}",
		"{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":1},\"content\":\"a\x00b\"}}",
		"{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":1,\"x\":\"\xff\xed\xa0\x80\x7f\"}}}",
		"{\"type\":\"assistant\",\"message\":{\"usage\":{\"input_tokens\":1,\"\xff\":2}}}",
		`{"type":"assistant","message":{"usage":{"input_tokens":1},"content":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}}`,
		`{"type":"assistant","message":{"id":"m","content":"\"usage\":{\"input_tokens\":5}"},"timestamp":"2026-11-23T06:00:00Z"}`,
	} {
		lines = append(lines, []byte(l))
	}
	return lines
}

// FuzzClaudeUsage holds the fast reading of a Claude Code line to decoding
// it with encoding/json: where it reads a line, it reads what encoding/json
// reads; where it does not, parseClaude decodes it.
//
//	go test -run '^$' -fuzz FuzzClaudeUsage -fuzztime 60s ./hook/usage/
func FuzzClaudeUsage(f *testing.F) {
	for _, l := range claudeSeeds(f) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		want, wantHas := claudeJSON(line)
		e, has, ok := claudeFast(line)
		if ok && (has != wantHas || e != want) {
			t.Errorf("%q:\nfast %+v (%v), encoding/json %+v (%v)", line, e, has, want, wantHas)
		}
		var got []Entry
		parseClaude(line, func(e Entry) { got = append(got, e) })
		if len(got) != btoi(wantHas) || wantHas && got[0] != want {
			t.Errorf("%q:\nparseClaude %+v, encoding/json %+v (%v)", line, got, want, wantHas)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The fast reading takes Claude Code's own lines without leaving them to
// encoding/json.
func TestClaudeFastReads(t *testing.T) {
	for _, l := range bytes.Split(sample(t, "claude.jsonl"), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		if _, _, ok := claudeFast(l); !ok {
			t.Errorf("left to encoding/json: %s", l)
		}
	}
}

// TestPiEntries: besides its messages, Pi's usage, compaction and
// branch_summary entries count (its session totals do), and a tool
// result's nested usage; an entry without usage, a system message that
// names "usage" in its text, and a custom entry's data do not.
func TestPiEntries(t *testing.T) {
	data := []byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-11-28T05:42:30.528Z","cwd":"/p"}
{"type":"message","id":"a","timestamp":"2026-11-28T05:42:31.336Z","message":{"role":"system","content":"report usage"}}
{"type":"message","id":"b","timestamp":"2026-11-28T05:42:32.000Z","message":{"role":"assistant","content":[],"usage":{"input":1200,"output":80,"cacheRead":3000,"cacheWrite":500,"reasoning":0,"totalTokens":4780}}}
{"type":"message","id":"c","timestamp":"2026-11-28T05:42:33.000Z","message":{"role":"toolResult","usage":{"input":7,"output":3,"cacheRead":0,"cacheWrite":0,"totalTokens":10}}}
{"type":"usage","id":"d","timestamp":"2026-11-28T05:42:34.000Z","kind":"cache_warm","usage":{"input":0,"output":0,"cacheRead":50000,"cacheWrite":0,"totalTokens":50000}}
{"type":"compaction","id":"e","timestamp":"2026-11-28T05:42:35.000Z","summary":"s","firstKeptEntryId":"b","usage":{"input":100,"output":20,"cacheRead":0,"cacheWrite":0,"totalTokens":120}}
{"type":"branch_summary","id":"f","timestamp":"2026-11-28T05:42:36.000Z","summary":"s","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2}}
{"type":"custom","id":"g","timestamp":"2026-11-28T05:42:37.000Z","customType":"x","data":{"usage":{"input":999}}}
`)
	c, _ := read(t, data, Cursor{}, Pi)
	want := Usage{Input: 1200 + 7 + 100 + 1, Output: 80 + 3 + 20 + 1, CacheRead: 3000 + 50000, CacheCreation: 500}
	if c.Sum != want {
		t.Errorf("sum %+v, want %+v", c.Sum, want)
	}
}

// FuzzRead holds Read, which reads and searches a buffer at a time while
// the lines found are decoded, to the plain reading: each whole line that
// holds the marker decoded in order, the offset after the last newline;
// read whole or in two reads.
//
//	go test -run '^$' -fuzz FuzzRead -fuzztime 60s ./hook/usage/
func FuzzRead(f *testing.F) {
	f.Add(sample(f, "claude.jsonl"), uint16(100), uint16(3))
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":3}}}`+"\n"+`{"x":"`+strings.Repeat("y", 9000)+`"}`+"\n"+`{"type":"assistant","message":{"id":"n","usage":{"output_tokens":4}}}`), uint16(70), uint16(200))
	// Lines without an id, which nothing dedupes, read again from a cursor
	// inside a part.
	f.Add([]byte(strings.Repeat(`{"type":"assistant","message":{"usage":{"input_tokens":1}}}`+"\n", 30)), uint16(1000), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16, repeat uint16) {
		if repeat%8 > 1 {
			data = bytes.Repeat(data, int(repeat%8))
		}
		var want Cursor
		end := bytes.LastIndexByte(data, '\n') + 1
		for _, line := range bytes.SplitAfter(data[:end], []byte("\n")) {
			if len(line) <= maxLine && bytes.Contains(line, Claude.Marker) {
				Claude.Parse(line, func(e Entry) { want.add(e, time.Time{}) })
			}
		}
		for _, size := range []int64{partSize, 1 + int64(cut)%700} {
			defer func(was int64) { partSize = was }(partSize)
			partSize = size
			got, _, err := Read(bytes.NewReader(data), int64(len(data)), Cursor{}, time.Time{}, Claude)
			if err != nil || got.Sum != want.Sum || got.Offset != int64(end) || !slices.Equal(got.Recent, want.Recent) {
				t.Fatalf("whole, in parts of %d: %+v at %d (%v), want %+v at %d", size, got.Sum, got.Offset, err, want.Sum, end)
			}
		}
		at := int(cut) % (len(data) + 1)
		first, _, err := Read(bytes.NewReader(data[:at]), int64(at), Cursor{}, time.Time{}, Claude)
		if err != nil {
			t.Fatal(err)
		}
		second, _, err := Read(bytes.NewReader(data), int64(len(data)), first, time.Time{}, Claude)
		if err != nil || second.Sum != want.Sum || second.Offset != int64(end) {
			t.Fatalf("in two reads cut at %d: %+v at %d (%v), want %+v at %d", at, second.Sum, second.Offset, err, want.Sum, end)
		}
	})
}

// readCut is a file of lines that cut parts in every way: empty lines, CRLF
// ones, lines without an id, a response written again, one line longer than
// many parts, and a last one without its newline.
func readCut() []byte {
	var b bytes.Buffer
	for i := range 12 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, `{"type":"assistant","message":{"usage":{"input_tokens":%d}}}`+"\n\n", 1<<i)
		case 1:
			fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m%d","usage":{"output_tokens":%d}}}`+"\r\n", i/2, i)
		case 2:
			fmt.Fprintf(&b, `{"type":"user","message":{"content":%q}}`+"\n", strings.Repeat("u", 50*i))
		case 3:
			fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m%d","usage":{"output_tokens":%d}}}`+"\n", i/2, 100*i)
		}
	}
	b.WriteString(`{"type":"assistant","message":{"usage":{"input_tokens":99999}}}`)
	return b.Bytes()
}

// Read from every cursor a first read can leave (each line's start), in parts of every size
// up to past the longest line, counts what a line by line reading does.
func TestReadEveryCut(t *testing.T) {
	data := readCut()
	end := bytes.LastIndexByte(data, '\n') + 1
	var want Cursor
	for _, line := range bytes.SplitAfter(data[:end], []byte("\n")) {
		Claude.Parse(line, func(e Entry) { want.add(e, time.Time{}) })
	}
	defer func(was int64) { partSize = was }(partSize)
	for size := int64(1); size <= 700; size += 1 + size/16 {
		partSize = size
		for at := 0; at < end; at += bytes.IndexByte(data[at:], '\n') + 1 {
			first, _ := read(t, data[:at], Cursor{}, Claude)
			got, _ := read(t, data, first, Claude)
			if got.Sum != want.Sum || got.Offset != int64(end) || !slices.Equal(got.Recent, want.Recent) {
				t.Fatalf("parts of %d, cut at %d: %+v at %d, want %+v at %d", size, at, got.Sum, got.Offset, want.Sum, end)
			}
		}
	}
}

// failingAt is a file that cannot be read at one offset.
type failingAt struct {
	data []byte
	at   int64
}

var errUnreadable = errors.New("unreadable")

func (f failingAt) ReadAt(p []byte, off int64) (int, error) {
	if off <= f.at && f.at < off+int64(len(p)) {
		return 0, errUnreadable
	}
	return bytes.NewReader(f.data).ReadAt(p, off)
}

// A read that fails on a part, wherever it is, returns the error, and its
// workers end, whether the others wait for the failed part or not.
func TestReadErrorEnds(t *testing.T) {
	var b bytes.Buffer
	for i := 0; b.Len() < 20000; i++ {
		fmt.Fprintf(&b, `{"type":"assistant","message":{"content":%q,"usage":{"input_tokens":1}}}`+"\n", strings.Repeat("x", i%500))
	}
	data := b.Bytes()
	defer func(was int64) { partSize = was }(partSize)
	before := runtime.NumGoroutine()
	for _, procs := range []int{1, 2, 3, 8} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, size := range []int64{7, 100, 64 << 10} {
			partSize = size
			for at := int64(0); at < int64(len(data)); at += 1499 {
				done := make(chan error)
				go func() {
					_, _, err := Read(failingAt{data, at}, int64(len(data)), Cursor{}, time.Time{}, Claude)
					done <- err
				}()
				select {
				case err := <-done:
					if !errors.Is(err, errUnreadable) {
						t.Fatalf("GOMAXPROCS %d, parts of %d, unreadable at %d: error %v", procs, size, at, err)
					}
				case <-time.After(20 * time.Second):
					t.Fatalf("GOMAXPROCS %d, parts of %d, unreadable at %d: no end", procs, size, at)
				}
			}
		}
	}
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left, %d before", n, before)
	}
}

// shrunk is a file cut at at after its size was taken.
type shrunk struct {
	data []byte
	at   int
}

func (s shrunk) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(s.data[:s.at]).ReadAt(p, off)
}

// A file that shrinks as it is read is read up to the end of a whole line
// it still has, and what is before that counts as a line by line reading.
func TestReadShrunk(t *testing.T) {
	data := readCut()
	defer func(was int64) { partSize = was }(partSize)
	for _, size := range []int64{1, 7, 100, 64 << 10} {
		partSize = size
		for at := 0; at <= len(data); at++ {
			got, _, err := Read(shrunk{data, at}, int64(len(data)), Cursor{}, time.Time{}, Claude)
			if err != nil {
				t.Fatal(err)
			}
			if got.Offset > int64(at) || got.Offset > 0 && data[got.Offset-1] != '\n' {
				t.Fatalf("parts of %d, cut at %d: offset %d", size, at, got.Offset)
			}
			var want Cursor
			for _, line := range bytes.SplitAfter(data[:got.Offset], []byte("\n")) {
				Claude.Parse(line, func(e Entry) { want.add(e, time.Time{}) })
			}
			if got.Sum != want.Sum {
				t.Fatalf("parts of %d, cut at %d: %+v at %d, want %+v", size, at, got.Sum, got.Offset, want.Sum)
			}
		}
	}
}
