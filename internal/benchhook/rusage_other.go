//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import "os"

// maxRSS is unknown here: this platform's rusage has no peak RSS.
func maxRSS(*os.ProcessState) int64 { return 0 }

// faults is unknown here.
func faults(*os.ProcessState) int64 { return 0 }
