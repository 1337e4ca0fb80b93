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
	// Buffers no larger than what is new (a stop reads a turn or two): one
	// goroutine reads whole lines into them, and a worker per core finds
	// the lines that hold the marker and decodes them, while this one
	// counts what each buffer gave in the file's order.
	size0 := int(min(max(size-c.Offset, 4<<10), 64<<10))
	workers := min(runtime.GOMAXPROCS(0), maxWorkers)
	free := make(chan *block, workers+2)
	for range cap(free) {
		free <- &block{buf: make([]byte, 0, size0), done: make(chan struct{}, 1)}
	}
	work, ordered := make(chan *block, cap(free)), make(chan *block, cap(free))
	var lineAt int64
	var readErr error
	go func() {
		defer close(ordered)
		defer close(work)
		lineAt, readErr = readLines(r, size, c.Offset, free, func(b *block) {
			work <- b
			ordered <- b
		})
	}()
	for range workers {
		go func() {
			for b := range work {
				b.parse(f)
			}
		}()
	}
	for b := range ordered {
		<-b.done
		for _, e := range b.entries {
			c.add(e, since)
		}
		b.recycle(size0)
		free <- b
	}
	if readErr != nil {
		return c, rewritten, readErr
	}
	// An unfinished last line is read again next time.
	next, _, err = c.at(r, lineAt)
	return next, rewritten, err
}

// maxWorkers is the most goroutines that decode one read: past it the
// read itself is what a first read waits for.
const maxWorkers = 4

// block is a buffer of whole lines read, and what the lines that hold the
// marker gave.
type block struct {
	buf     []byte // the buffer the lines are read into
	lines   []byte // the whole lines in it
	entries []Entry
	done    chan struct{} // a token once entries are in
}

// parse decodes the lines of b that hold f's marker.
func (b *block) parse(f Format) {
	add := func(e Entry) { b.entries = append(b.entries, e) }
	for lines := b.lines; ; {
		line, rest, ok := nextMarked(lines, f.Marker)
		if !ok {
			break
		}
		if len(line) <= maxLine {
			f.Parse(line, add)
		}
		lines = rest
	}
	b.done <- struct{}{}
}

// recycle empties b for the next lines, its buffer back to size0 if a
// long line grew it.
func (b *block) recycle(size0 int) {
	if cap(b.buf) > 4*size0 {
		b.buf = make([]byte, 0, size0)
	}
	b.buf, b.lines, b.entries = b.buf[:0], nil, b.entries[:0]
}

// readLines reads r, a file of size bytes, from pos on, into the blocks
// free hands it, and sends each block of whole lines; it returns the start
// of the unfinished last line. A line longer than maxLine is skipped.
func readLines(r io.ReaderAt, size, pos int64, free <-chan *block, send func(*block)) (lineAt int64, err error) {
	b := <-free
	buf := b.buf
	lineAt = pos      // the start of the line being read; pos is buf[0]'s
	dropping := false // in a line longer than maxLine, which is skipped
	for pos+int64(len(buf)) < size {
		if len(buf) == cap(buf) {
			// No newline in a full buffer: a long line. Keep it whole up
			// to maxLine, then drop it.
			if cap(buf) <= maxLine {
				buf = append(buf[:cap(buf)], 0)[:len(buf)]
			} else {
				pos += int64(len(buf))
				buf, dropping = buf[:0], true
			}
		}
		room := buf[len(buf):min(int64(cap(buf)), int64(len(buf))+size-pos-int64(len(buf)))]
		n, err := r.ReadAt(room, pos+int64(len(buf)))
		buf = buf[:len(buf)+n]
		if err != nil && !(errors.Is(err, io.EOF) && n == len(room)) {
			if errors.Is(err, io.EOF) {
				break // the file shrank as it was read: the rest next time
			}
			return lineAt, err
		}
		end := bytes.LastIndexByte(buf, '\n') + 1 // whole lines
		if end == 0 {
			continue
		}
		lines := buf[:end]
		if dropping {
			nl := bytes.IndexByte(lines, '\n')
			lines, dropping = lines[nl+1:], false
		}
		next := <-free
		next.buf = append(next.buf, buf[end:]...)
		b.buf, b.lines = buf, lines
		send(b)
		b, buf = next, next.buf
		pos += int64(end)
		lineAt = pos
	}
	return lineAt, nil
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
