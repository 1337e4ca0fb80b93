package hook

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/loophook/loophook/schema"
)

// stateFile is where a hope loop keeps its state.
const stateFile = ".loop/state.json"

// stop runs the Stop hook as the command does, notes on stderr.
func stop(o Options, stdin io.Reader, stdout, stderr io.Writer) {
	o.Note = func(msg string) { fmt.Fprintln(stderr, Prefix+msg) }
	Run(EventStop, o, stdin, stdout)
}

// sessionStart runs the SessionStart hook as the command does.
func sessionStart(o Options, stdin io.Reader, stdout, stderr io.Writer) {
	o.Note = func(msg string) { fmt.Fprintln(stderr, Prefix+msg) }
	Run(EventSessionStart, o, stdin, stdout)
}

// host returns the named host.
func host(name string) Host {
	h, err := LookupHost(name)
	if err != nil {
		panic(err)
	}
	return h
}

// hopeStore is the store of the hope loop in dir.
func hopeStore(dir string) Store {
	return StoreFor(Found{Path: filepath.Join(dir, stateFile), Dialect: schema.Hope})
}
