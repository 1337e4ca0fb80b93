//go:build !linux

package main

import "errors"

// exactPeakRSS needs Linux's ptrace and /proc; elsewhere ru_maxrss stands.
func exactPeakRSS(path string, args []string, dir string, env []string, stdin []byte) (int64, error) {
	return 0, errors.New("exact peak RSS is measured on Linux only")
}
