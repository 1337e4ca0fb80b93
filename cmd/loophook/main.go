// Command loophook decides whether an AI coding agent's work loop may stop.
// See README.md; the behaviour is specified in SPEC.md.
package main

import "os"

func main() {
	growStack()
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// growStack grows the goroutine's stack to the 32 KiB a hook call needs, at
// once and while it holds no frames. Grown on demand from 8 KiB, it is
// copied twice in the middle of the call, each copy walking every frame
// through the runtime's tables, paged in cold: a tenth of the process's time
// (internal/benchhook).
//
//go:noinline
func growStack() byte {
	var frame [24 << 10]byte
	return touch(frame[:])
}

//go:noinline
func touch(b []byte) byte { return b[len(b)-1] }
