package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/memory"
)

// now sets VAR to the time now, RFC 3339 in UTC, for a transcript line
// written after the loop's contract began:
//
//	now VAR
func now(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: now VAR")
	}
	ts.Setenv(args[0], time.Now().UTC().Format(time.RFC3339Nano))
}

// appendx appends SRC to DST, replacing $VARS with the script's
// environment, as a host appends to its transcript:
//
//	appendx SRC DST
func appendx(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: appendx SRC DST")
	}
	f, err := os.OpenFile(ts.MkAbs(args[1]), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	ts.Check(err)
	_, err = f.WriteString(os.Expand(ts.ReadFile(args[0]), ts.Getenv))
	ts.Check(err)
	ts.Check(f.Close())
}

// approveMain approves the .loophook.json of the directory it is given as
// a person's loophook accept does, without the terminal a script does not
// have; a program of its own, so that it runs in the script's home:
//
//	exec approve DIR
func approveMain() int {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: approve DIR")
		return 2
	}
	if _, err := config.Approve(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// tree writes to OUT every directory, file (its size and a hash of its
// bytes) and link under each DIR, an absent DIR too, so that a script can
// compare a tree before and after with cmp:
//
//	tree OUT DIR...
func tree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: tree OUT DIR...")
	}
	var lines []string
	for _, dir := range args[1:] {
		root := ts.MkAbs(dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if os.IsNotExist(err) && path == root {
				lines = append(lines, "absent "+dir)
				return nil
			}
			if err != nil {
				return err
			}
			name := filepath.ToSlash(filepath.Join(dir, strings.TrimPrefix(path, root)))
			switch {
			case d.Type()&fs.ModeSymlink != 0:
				to, _ := os.Readlink(path)
				lines = append(lines, "link "+name+" -> "+to)
			case d.IsDir():
				lines = append(lines, "dir "+name)
			default:
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				lines = append(lines, fmt.Sprintf("file %s %d %x", name, len(data), sha256.Sum256(data)))
			}
			return nil
		})
		ts.Check(err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}

// memdir sets VAR to the hook's memory directory of the state file FILE
// in the script's per-user cache, where hook/memory keeps it:
//
//	memdir VAR FILE
func memdir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: memdir VAR FILE")
	}
	root := ts.Getenv("XDG_CACHE_HOME")
	switch {
	case runtime.GOOS == "darwin":
		root = filepath.Join(ts.Getenv("HOME"), "Library", "Caches")
	case runtime.GOOS == "windows":
		root = ts.Getenv("LocalAppData")
	case root == "":
		root = filepath.Join(ts.Getenv("HOME"), ".cache")
	}
	ts.Setenv(args[0], memory.DirIn(root, ts.MkAbs(args[1])))
}
