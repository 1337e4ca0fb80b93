// Package usage reads the model tokens an agent host recorded for a session
// in its own files (Claude Code's transcript, Codex's rollout, Gemini's and
// Qwen's session files, Copilot's events.jsonl, Droid's settings file, Pi's
// session file), and reads them incrementally: a Cursor remembers how far a
// file was read and what it summed, so a stop reads only what was written
// since the last one.
package usage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"io"
	"runtime"
	"slices"
	"sync"
	"time"
)

// Usage is the tokens of one or more model responses, in four disjoint
// parts: their sum is what the host counted.
type Usage struct {
	Input         int64 `json:"input,omitempty"`
	Output        int64 `json:"output,omitempty"`
	CacheCreation int64 `json:"cacheCreation,omitempty"`
	CacheRead     int64 `json:"cacheRead,omitempty"`
}

// Total is every token of u.
func (u Usage) Total() int64 { return u.Input + u.Output + u.CacheCreation + u.CacheRead }

// Add returns u and v summed.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Input + v.Input, u.Output + v.Output, u.CacheCreation + v.CacheCreation, u.CacheRead + v.CacheRead}
}

// Sub returns u less v.
func (u Usage) Sub(v Usage) Usage {
	return Usage{u.Input - v.Input, u.Output - v.Output, u.CacheCreation - v.CacheCreation, u.CacheRead - v.CacheRead}
}

// Entry is one model response's usage, as one line of a host's file
// records it.
type Entry struct {
	// ID names the response: a later line with the same ID records the
	// same response again, and replaces it rather than adding to it.
	ID string
	// At is when the line was written; zero when it says not.
	At    time.Time
	Usage Usage
}

// Format is how one host records usage in a JSON Lines file.
type Format struct {
	Name string
	// Marker is in every line that records usage: a line without it is
	// skipped without decoding.
	Marker []byte
	// Parse reads one line and gives each response it records to add; a
	// line that is not JSON, or records no usage, adds none.
	Parse func(line []byte, add func(Entry))
}

// Cursor is how far a file has been read and what it summed: the part of
// the hook's memory that makes the next read start where this one stopped.
type Cursor struct {
	Offset int64  `json:"offset"` // bytes read, up to the end of a whole line
	Head   uint64 `json:"head"`   // hash of the file's first bytes, up to window
	Tail   uint64 `json:"tail"`   // hash of the bytes before Offset, up to window
	Sum    Usage  `json:"sum"`    // tokens counted so far
	// Last is the time of the latest response counted; Floor, after the
	// file was rewritten, the Last of the file before: a response of the
	// rewritten file no later than it was counted already.
	Last  time.Time `json:"last,omitzero"`
	Floor time.Time `json:"floor,omitzero"`
	// Recent are the last responses counted, so that a response written
	// again on a later line (Claude Code writes one line per content
	// block, each with the message's usage) is counted once.
	Recent []Counted `json:"recent,omitempty"`
}

// Counted is a response counted, and what it counted for.
type Counted struct {
	ID    string `json:"id"`
	Usage Usage  `json:"usage"`
}

// keepRecent is how many responses a cursor remembers: the lines of one
// response are written together, a few lines apart at most.
const keepRecent = 8

// window is how many bytes at the start of a file, and before the cursor,
// must be as they were for a file to count as the one read before.
const window = 256

// maxLine is the longest line decoded; a longer one is skipped, as is a
// malformed one.
const maxLine = 16 << 20

// Read reads r, a file of size bytes, from the cursor on, and returns the
// cursor after it. A file that shrank, or whose bytes at its start or
// before the cursor are not those read before, was rewritten (a compaction,
// say): it is read again from its start, once, and rewritten is true; what
// was counted stays counted, and of the rewritten file only the responses
// later than the last one counted are added. Entries written before since
// are not counted. A last line without its
// newline is left for the next read: the host is still writing it.
func Read(r io.ReaderAt, size int64, c Cursor, since time.Time, f Format) (next Cursor, rewritten bool, err error) {
	if c.Offset > 0 {
		same, err := unchanged(r, size, c)
		if err != nil {
			return c, false, err
		}
		if !same {
			c = Cursor{Sum: c.Sum, Last: c.Last, Floor: c.Last, Recent: c.Recent}
			rewritten = true
		}
	}
	lineAt, err := readParts(r, size, c.Offset, f, func(es []Entry) {
		for _, e := range es {
			c.add(e, since)
		}
	})
	if err != nil {
		return c, rewritten, err
	}
	// An unfinished last line is read again next time.
	next, _, err = c.at(r, lineAt)
	return next, rewritten, err
}

// partSize is how much of the file one worker reads at a time; a test
// makes it small, to cut lines at many places.
var partSize int64 = 64 << 10

// maxWorkers is the most goroutines that read one file: past it the
// memory's speed is what a first read waits for.
const maxWorkers = 4

// part is what one worker made of the lines that start in its part of the
// file.
type part struct {
	entries []Entry
	end     int64 // where the next read begins, if this part is the last
	short   bool  // the file ended before the part: it shrank as it was read
	err     error
}

// ahead is how many parts past the first one not yet counted may be read:
// the entries of a part wait for those before it.
const ahead = 8

// readParts reads r, a file of size bytes, from origin on, in parts of
// partSize read and decoded side by side, a worker per core, and hands
// count the entries of each part in the file's order. It returns the end
// of the last whole line: what is after it is an unfinished line.
func readParts(r io.ReaderAt, size, origin int64, f Format, count func([]Entry)) (lineAt int64, err error) {
	workers := int(min(int64(runtime.GOMAXPROCS(0)), maxWorkers, (size-origin+partSize-1)/partSize))
	// Parts are handed out in order; the worker that reads the first one
	// not yet counted counts it, and every one after it already read.
	var (
		mu      sync.Mutex
		moved   = sync.NewCond(&mu) // the first part not counted moved on
		next    = origin            // where the next part starts
		claimed int                 // parts handed out
		counted int                 // parts counted
		read    [ahead]*part        // parts read, not yet counted, by number
		spare   []*part             // parts counted, for their entries' room
		stopped bool                // a part failed: count nothing after it
		wg      sync.WaitGroup
	)
	lineAt = origin
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := worker{r: r, size: size, origin: origin, f: f}
			for {
				mu.Lock()
				for !stopped && next < size && claimed-counted >= ahead {
					moved.Wait()
				}
				if stopped || next >= size {
					mu.Unlock()
					return
				}
				start, n := next, claimed
				next += partSize - next%partSize // parts after the first are aligned
				end := min(next, size)           // the first ends where the second begins
				claimed++
				p := new(part)
				if len(spare) > 0 {
					p, spare = spare[len(spare)-1], spare[:len(spare)-1]
				}
				mu.Unlock()

				w.read(start, end, p)

				mu.Lock()
				read[n%ahead] = p
				for ; read[counted%ahead] != nil; counted++ {
					p := read[counted%ahead]
					read[counted%ahead] = nil
					switch {
					case stopped:
					case p.err != nil:
						err, stopped = p.err, true
					case p.short:
						stopped = true // the rest next time
					default:
						count(p.entries)
						lineAt = max(lineAt, p.end)
					}
					*p = part{entries: p.entries[:0]}
					spare = append(spare, p)
				}
				moved.Broadcast()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return lineAt, err
}

// worker reads parts of a file into a buffer of its own.
type worker struct {
	r            io.ReaderAt
	size, origin int64
	f            Format
	buf          []byte
}

// read reads the lines that start in [start, end) into p: the byte before
// start says whether a line starts there, and the last of them is read on
// past end to its newline. A line longer than maxLine is skipped.
func (w *worker) read(start, end int64, p *part) {
	// Read from a multiple of 64 bytes: a copy whose source and
	// destination are not aligned alike costs up to four times as much.
	from := max(start-1, 0) &^ 63
	if w.buf == nil || int64(cap(w.buf)) > 4*partSize { // a long line grew it
		// Room for a part and its last line, or for what is new: a stop
		// reads a turn or two.
		w.buf = make([]byte, 0, min(2*partSize, w.size-from))
	}
	buf, short, err := w.readAt(w.buf[:0], from, end)
	w.buf = buf
	if err != nil || short {
		p.err, p.short = err, short
		return
	}
	first := int(start - from) // the first line that starts in the part
	if start > w.origin {
		nl := bytes.IndexByte(buf[first-1:len(buf)-1], '\n')
		if nl < 0 {
			return // the part is inside a line that started before it
		}
		first += nl
	}
	decoded := len(buf) // the lines decoded are buf[first:decoded]
	p.end = from + int64(len(buf))
	if buf[len(buf)-1] != '\n' {
		// The part's last line goes on past it: until its newline, it
		// is an unfinished line, whose start is where the next read
		// begins.
		tail := first + lastNewline(buf[first:]) + 1
		decoded, p.end = tail, from+int64(tail)
		var lineEnd int64
		buf, lineEnd, short, err = w.finish(buf, from, tail)
		w.buf = buf
		if err != nil || short {
			p.err, p.short = err, short
			return
		}
		if lineEnd > 0 {
			p.end = lineEnd
			if lineEnd-(from+int64(tail)) <= maxLine {
				decoded = int(lineEnd - from)
			}
		}
	}
	add := func(e Entry) { p.entries = append(p.entries, e) }
	for lines := buf[first:decoded]; ; {
		line, rest, ok := nextMarked(lines, w.f.Marker)
		if !ok {
			break
		}
		w.f.Parse(line, add)
		lines = rest
	}
}

// finishStep is the least read on past a part for its last line.
const finishStep = 4 << 10

// finish reads on past buf, bytes from from on whose last line starts at
// buf[tail], to that line's newline, and returns where the line ends, with
// buf holding it unless it is longer than maxLine; 0 when the file ends
// first, and the line is unfinished.
func (w *worker) finish(buf []byte, from int64, tail int) (_ []byte, lineEnd int64, short bool, err error) {
	pos := from + int64(len(buf))
	long := false // too long to decode: only its end is wanted
	for pos < w.size {
		n := min(w.size-pos, max(finishStep, int64(len(buf)-tail)))
		if long = long || len(buf)-tail > maxLine; long {
			buf, n = buf[:tail], min(w.size-pos, partSize)
		}
		was := len(buf)
		if buf, short, err = w.readAt(buf, pos, pos+n); err != nil || short {
			return buf, 0, short, err
		}
		if nl := bytes.IndexByte(buf[was:], '\n'); nl >= 0 {
			return buf, pos + int64(nl) + 1, false, nil
		}
		pos += n
	}
	return buf, 0, false, nil
}

// readAt appends the bytes of [from, to) to buf; short is whether the file
// ended before to, having shrunk since its size was taken.
func (w *worker) readAt(buf []byte, from, to int64) (_ []byte, short bool, err error) {
	n := len(buf)
	buf = slices.Grow(buf, int(to-from))[:n+int(to-from)]
	got, err := w.r.ReadAt(buf[n:], from)
	if err != nil && !(errors.Is(err, io.EOF) && got == len(buf)-n) {
		if errors.Is(err, io.EOF) {
			return buf[:n+got], true, nil
		}
		return buf[:n+got], false, err
	}
	return buf, false, nil
}

// nextMarked finds the first line of lines, whole lines, that holds
// marker, and returns it and the lines after it. The search is for the
// marker's last byte where that is a brace, which text rarely holds, else
// for its last five bytes.
func nextMarked(lines, marker []byte) (line, rest []byte, ok bool) {
	tail := marker[len(marker)-min(5, len(marker)):]
	if last := marker[len(marker)-1]; last == '{' || last == '[' {
		tail = marker[len(marker)-1:]
	}
	back := len(marker) - len(tail)
	for from := back; from < len(lines); {
		j := bytes.Index(lines[from:], tail)
		if j < 0 {
			break
		}
		i := from + j - back // where the marker would start
		if !bytes.Equal(lines[i:i+back], marker[:back]) {
			from += j + 1
			continue
		}
		start := lastNewline(lines[:i]) + 1
		end := len(lines)
		if k := bytes.IndexByte(lines[i:], '\n'); k >= 0 {
			end = i + k + 1
		}
		return lines[start:end], lines[end:], true
	}
	return nil, nil, false
}

// lastNewline is bytes.LastIndexByte(b, '\n'), eight bytes at a time: the
// marker is near the end of a long line.
func lastNewline(b []byte) int {
	i := len(b)
	for ; i >= 8; i -= 8 {
		x := binary.LittleEndian.Uint64(b[i-8:]) ^ (ones * '\n')
		if m := (x - ones) &^ x & highs; m != 0 {
			// The lowest marked byte is a newline for certain, the others
			// perhaps not: look at each from the top.
			for j := i - 1; j >= i-8; j-- {
				if b[j] == '\n' {
					return j
				}
			}
		}
	}
	return bytes.LastIndexByte(b[:i], '\n')
}

// at finishes a read that ended at pos.
func (c Cursor) at(r io.ReaderAt, pos int64) (Cursor, bool, error) {
	c.Offset = pos
	var err error
	c.Head, c.Tail, err = hashes(r, pos)
	return c, false, err
}

// add counts one response.
func (c *Cursor) add(e Entry, since time.Time) {
	switch {
	case e.At.IsZero():
	case e.At.Before(since):
		e.Usage = Usage{} // before the loop began: remembered, not counted
	case !e.At.After(c.Floor):
		return // counted before the file was rewritten
	case e.At.After(c.Last):
		c.Last = e.At
	}
	if e.ID != "" {
		for i, seen := range c.Recent {
			if seen.ID == e.ID {
				c.Sum = c.Sum.Sub(seen.Usage).Add(e.Usage)
				c.Recent[i].Usage = e.Usage
				return
			}
		}
		c.Recent = append(c.Recent, Counted{ID: e.ID, Usage: e.Usage})
		if len(c.Recent) > keepRecent {
			c.Recent = c.Recent[len(c.Recent)-keepRecent:]
		}
	}
	c.Sum = c.Sum.Add(e.Usage)
}

// unchanged reports whether the file is still the one the cursor read.
func unchanged(r io.ReaderAt, size int64, c Cursor) (bool, error) {
	if size < c.Offset {
		return false, nil
	}
	head, tail, err := hashes(r, c.Offset)
	return head == c.Head && tail == c.Tail, err
}

// hashes hashes the first and the last window bytes before end.
func hashes(r io.ReaderAt, end int64) (head, tail uint64, err error) {
	n := min(end, window)
	buf := make([]byte, n)
	if head, err = hashAt(r, buf, 0); err != nil {
		return 0, 0, err
	}
	tail, err = hashAt(r, buf, end-n)
	return head, tail, err
}

func hashAt(r io.ReaderAt, buf []byte, off int64) (uint64, error) {
	if _, err := r.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	h := fnv.New64a()
	h.Write(buf)
	return h.Sum64(), nil
}
