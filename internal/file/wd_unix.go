//go:build unix

package file

import "syscall"

// kernelWd is the working directory as getcwd(2) names it: absolute, with
// no symbolic link in it.
func kernelWd() (string, bool) {
	wd, err := syscall.Getwd()
	return wd, err == nil
}
