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
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
