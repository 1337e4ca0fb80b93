// Command loophook decides whether an AI coding agent's work loop may stop.
// See README.md; the behaviour is specified in SPEC.md.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
