// Package early sets what a loophook process must have before the other
// packages initialise: the main goroutine's stack grown once to what a hook
// call needs, and one P. It imports only the runtime, so it is initialised
// right after it, first of all the packages; the main package imports it
// for that alone, and the testscript hook/early-first holds it to its
// place.
//
// A goroutine starts on a small stack and doubles it when a call needs
// more. Each doubling copies the stack, walking every frame on it through
// the runtime's tables, and in a process that lives for two milliseconds
// those tables are not yet paged in. Left alone, the packages'
// initialisation and then a hook call grew the stack step by step; grown
// once, here, while it holds no frames, a typical stop took about 6% less
// time (internal/benchhook).
//
// A hook call is one goroutine's work from start to end, but the runtime
// starts with a P for every CPU, and the packages' initialisation (the
// goroutines it starts wake a second P) spread the process's allocations
// over their caches: each P takes spans of its own for every size class it
// allocates, and each new span is a fresh page or two to fault in. With one
// P from here on, a stop faults in about 15 pages fewer and takes 1–3%
// less time. Set in main instead, it came after the damage and cost more
// than it saved.
package early

import "runtime"

func init() {
	runtime.GOMAXPROCS(1)
	grow()
}

// grow takes a frame of 24 KiB, which the runtime rounds up to a 32 KiB
// stack in one copy.
//
//go:noinline
func grow() byte {
	var frame [24 << 10]byte
	return touch(frame[:])
}

//go:noinline
func touch(b []byte) byte { return b[len(b)-1] }
