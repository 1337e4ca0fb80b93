package checks

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// MaxOutput is how much of a check's output is kept: its last MiB. A
// check that prints gigabytes costs the hook this much memory, no more.
const MaxOutput = 1 << 20

// ring keeps the last len(buf) bytes written to it.
type ring struct {
	buf   []byte
	next  int   // where the next byte goes
	total int64 // bytes written in all
}

func newRing(size int) *ring { return &ring{buf: make([]byte, size)} }

func (r *ring) Write(p []byte) (int, error) {
	n := len(p)
	r.total += int64(n)
	if len(p) > len(r.buf) {
		p = p[len(p)-len(r.buf):]
	}
	for len(p) > 0 {
		c := copy(r.buf[r.next:], p)
		p = p[c:]
		r.next = (r.next + c) % len(r.buf)
	}
	return n, nil
}

// Bytes are the bytes kept, oldest first.
func (r *ring) Bytes() []byte {
	if r.total < int64(len(r.buf)) {
		return bytes.Clone(r.buf[:r.next])
	}
	return append(bytes.Clone(r.buf[r.next:]), r.buf[:r.next]...)
}

// dropped is how many bytes of the output were not kept.
func (r *ring) dropped() int64 { return max(0, r.total-int64(len(r.buf))) }

// The tail of a check's output that a reason carries: short enough for
// the agent's context whatever the check printed.
const (
	tailLines = 20
	tailBytes = 1200
)

// tail is the last lines of out, at most tailLines and tailBytes, as
// valid UTF-8, with tabs as spaces.
func tail(out []byte) string {
	out = bytes.TrimRight(out, "\r\n")
	if len(out) > tailBytes {
		out = out[len(out)-tailBytes:]
		for len(out) > 0 && !utf8.RuneStart(out[0]) {
			out = out[1:]
		}
	}
	lines := strings.Split(strings.ToValidUTF8(string(out), "\uFFFD"), "\n")
	lines = lines[max(0, len(lines)-tailLines):]
	return strings.ReplaceAll(strings.Join(lines, "\n"), "\t", "  ")
}
