// Package bigstack grows the stack of the goroutine that initialises the
// program, and then runs its main, to 32 KiB: the most a hook call needs.
// It imports nothing, so it is initialised first, right after the
// runtime; the main package imports it for that alone.
//
// A goroutine starts on a small stack and doubles it when a call needs
// more. Each doubling copies the stack, walking every frame on it through
// the runtime's tables, and in a process that lives for two milliseconds
// those tables are not yet paged in. Left alone, the packages'
// initialisation and then a hook call grew the stack step by step; grown
// once, here, while it holds no frames, a typical stop takes about 6% less
// time (internal/benchhook), and the testscript hook/stack-grown-first
// holds this package to its place in the order.
package bigstack

func init() { grow() }

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
