package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/schema"
)

// MaxState caps the state file so that a runaway file cannot stall a turn.
const MaxState = 16 << 20

// StateFile is where the state lives, relative to a project.
const StateFile = ".loop/state.json"

// FindState returns the nearest .loop/state.json at or above dir, never above
// the enclosing git work tree's root, else the one under projectDir; "" when
// there is none.
func FindState(dir, projectDir string) string {
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		for {
			p := filepath.Join(dir, StateFile)
			if _, err := os.Lstat(p); err == nil {
				return p
			}
			if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	if projectDir != "" {
		p := filepath.Join(projectDir, StateFile)
		if _, err := os.Lstat(p); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
			return p
		}
	}
	return ""
}

// Loaded is a state file read once: its bytes' fingerprint and either the
// parsed state or the problems that make it invalid.
type Loaded struct {
	Path        string
	Fingerprint string
	State       *criteria.State
	Problems    []string
	// Session is the file's session_id when it parses as JSON, valid or not.
	Session string
}

// LoadState reads and checks the state file at path. It never fails: what is
// wrong with the file becomes Problems.
func LoadState(path string) *Loaded {
	return loadState(path, ReadStateFile)
}

// loadState is LoadState with the file's bytes from read.
func loadState(path string, read func(string) ([]byte, error)) *Loaded {
	l := &Loaded{Path: path}
	data, err := read(path)
	if err != nil {
		l.Fingerprint = "unreadable:" + err.Error()
		l.Problems = []string{err.Error()}
		return l
	}
	if len(data) < largeState {
		l.Fingerprint = fingerprint(data)
		l.State, l.Problems, l.Session = Parse(data)
		return l
	}
	// A large state's fingerprint is computed beside the parse, on another
	// CPU. In a mapped file both may fault (see evaluateMapped), so the
	// fault is carried over to this goroutine.
	var fault any
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { fault = recover() }()
		debug.SetPanicOnFault(true)
		l.Fingerprint = fingerprint(data)
	}()
	l.State, l.Problems, l.Session = Parse(data)
	if <-done; fault != nil {
		panic(fault)
	}
	return l
}

// Parse checks a state document against the schema; it accepts a UTF-8 byte
// order mark and CRLF line ends.
func Parse(data []byte) (state *criteria.State, problems []string, session string) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if s, ok := criteria.Decode(data); ok {
		return s, nil, s.SessionID
	}
	return parseGeneral(data)
}

// parseGeneral decodes the document into a generic tree and validates that,
// naming every problem; Parse's fast path leaves everything unusual to it.
func parseGeneral(data []byte) (state *criteria.State, problems []string, session string) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, []string{"the file is empty"}, ""
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, []string{JSONError(data, err)}, ""
	}
	obj, _ := doc.(map[string]any)
	if s, ok := obj["session_id"].(string); ok {
		session = s
	}
	if problems := schema.Validate(doc); len(problems) > 0 {
		return nil, problems, session
	}
	return criteria.FromDocument(obj), nil, session
}

// ReadStateFile reads a state file within the size cap, refusing what is not a
// regular file; its errors say what is wrong with the file.
func ReadStateFile(path string) ([]byte, error) {
	return readStateFile(path, nil)
}

// largeState is the size from which a state file is large. The hook maps a
// large file into memory rather than reading it, since copying megabytes
// into fresh memory costs more than the rest of an evaluation, and computes
// its fingerprint beside the parse.
const largeState = 256 << 10

// mappings are the state files one evaluation has mapped into memory.
type mappings [][]byte

func (m *mappings) release() {
	for _, data := range *m {
		unmapFile(data)
	}
	*m = nil
}

// readStateFile is ReadStateFile; with mapped not nil, a file of largeState
// bytes or more is mapped into memory and added to mapped, for the caller
// to release once it is done with the bytes and all that points into them.
func readStateFile(path string, mapped *mappings) ([]byte, error) {
	// Stat before opening: opening a named pipe would block the turn.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, openError(err)
	}
	switch {
	case fi.IsDir():
		return nil, errors.New("the file is a directory")
	case !fi.Mode().IsRegular():
		return nil, errors.New("the file is not a regular file")
	case fi.Size() > MaxState:
		return nil, fmt.Errorf("the file is larger than %d MiB", MaxState>>20)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, openError(err)
	}
	defer f.Close()
	if mapped != nil && fi.Size() >= largeState {
		// The size of the file opened, which a rename may have replaced.
		if fi, err := f.Stat(); err == nil && fi.Size() >= largeState && fi.Size() <= MaxState {
			if data, err := mapFile(f, int(fi.Size())); err == nil {
				*mapped = append(*mapped, data)
				return data, nil
			}
		}
	}
	// One read of the size Stat gave, and one more byte to see it has not grown.
	data := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, data)
	switch {
	case err == nil:
		return nil, errors.New("the file changed while it was read") // it grew
	case err != io.ErrUnexpectedEOF && err != io.EOF:
		return nil, fmt.Errorf("the file cannot be read: %v", cause(err))
	}
	return data[:n], nil
}

func openError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("the file does not exist (or is a broken link)")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("the file cannot be read: permission denied")
	}
	return fmt.Errorf("the file cannot be opened: %v", cause(err))
}

// cause drops the path from an os error: the reason names the file already.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// fingerprint identifies a state file's bytes for the runaway guard: their
// CRC-32, which the CPU computes at memory speed, and their length. (CRC-32C
// would cost a quarter of a millisecond to set up in every process.) A
// collision only makes one changed state look unchanged to the guard, which
// needs several unchanged stops in a row to act.
func fingerprint(data []byte) string {
	return fmt.Sprintf("%08x-%d", crc32.ChecksumIEEE(data), len(data))
}
