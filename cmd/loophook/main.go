// Command loophook decides whether an AI coding agent's work loop may stop.
// See README.md; the behaviour is specified in SPEC.md.
//
// A hook call lives a few milliseconds: the runtime's watch for a changing
// CPU quota, to update GOMAXPROCS by, would only start a goroutine, and so
// a thread, for it: 7% of a stop's time, timed as whole processes.
//
//go:debug updatemaxprocs=0
package main

import "os"

func main() {
	growStack()
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// growStack grows the goroutine's stack to the 32 KiB a hook call needs, at
// once and while it holds no frames. Grown on demand from 8 KiB, it is
// copied twice in the middle of the call, each copy walking every frame
// through the runtime's tables, paged in cold: about 5% of a stop's time,
// timed as whole processes.
//
//go:noinline
func growStack() byte {
	var frame [24 << 10]byte
	return touch(frame[:])
}

//go:noinline
func touch(b []byte) byte { return b[len(b)-1] }
