package main

import (
	"os"

	"github.com/loophook/loophook/hook"
)

// shown names a file for a person: relative to the working directory when it
// is below it, else in full.
func shown(path string) string {
	wd, _ := os.Getwd()
	return hook.Relative(wd, path)
}
