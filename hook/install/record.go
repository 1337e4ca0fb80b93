package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loophook/loophook/internal/file"
)

// The install record (SPEC section 4): what an install created and set in
// a host's file, kept in the user's configuration directory and keyed by
// the file's physical path, so that uninstall takes back exactly that and
// nothing that was the person's, even a value equal to loophook's. An
// install made before records existed has none, and is undone by looking
// at the file, as it always was.

// A Record is what install created and set in one host file.
type Record struct {
	// Path is the file's physical path: links followed, so that two names
	// of one file share a record.
	Path string `json:"path"`
	Host string `json:"host"`
	// Created: the file did not exist before install wrote it.
	Created bool `json:"created,omitempty"`
	// Keys are the JSON pointers of the members install added beside its
	// hooks: "hooks", an event's list, "env", the block cap, a new file's
	// version. Uninstall takes out those it finds empty, or still at
	// install's value.
	Keys []string `json:"keys,omitempty"`
	// Trust is what install did to the host's trust file, if anything.
	Trust *TrustRecord `json:"trust,omitempty"`
}

// A TrustRecord is what install did to a host's trust file (Codex CLI's
// config.toml).
type TrustRecord struct {
	Path    string `json:"path"`
	Created bool   `json:"created,omitempty"`
	// Project: install trusted the project; the person had not.
	Project bool `json:"project,omitempty"`
}

// recordsDir is where the records are kept.
func recordsDir() (string, error) {
	root, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "loophook", "installed"), nil
}

// recordFile is the record of the file at the physical path: named by a
// hash of the path, which the record holds too, to tell a collision.
func recordFile(path string) (string, error) {
	dir, err := recordsDir()
	if err != nil {
		return "", err
	}
	h := fnv.New64a()
	h.Write([]byte(path))
	return filepath.Join(dir, fmt.Sprintf("%016x.json", h.Sum64())), nil
}

// Physical is path with every link on the way resolved, the directories
// that do not exist yet kept as named: the key of a file's record.
func Physical(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	var rest []string
	for d := abs; ; d = filepath.Dir(d) {
		if p, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(append([]string{p}, rest...)...)
		}
		if filepath.Dir(d) == d {
			return abs
		}
		rest = append([]string{filepath.Base(d)}, rest...)
	}
}

// ReadRecord is the record of the file at path (any name of it); nil when
// install made none.
func ReadRecord(path string) (*Record, error) {
	phys := Physical(path)
	at, err := recordFile(phys)
	if err != nil {
		return nil, err
	}
	data, err := file.Read(at, maxFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	}
	var r Record
	if json.Unmarshal(data, &r) != nil || r.Path != phys {
		return nil, nil // damaged, or another file's whose path hashes alike
	}
	return &r, nil
}

// Write keeps the record, atomically.
func (r *Record) Write() error {
	at, err := recordFile(r.Path)
	if err != nil {
		return err
	}
	if err := makeRecordsDir(filepath.Dir(at)); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return file.Write(at, append(data, '\n'), 0o600)
}

// trustCreated reports whether a kept record says install created the
// host's trust file at the physical path.
func trustCreated(path string) bool {
	dir, err := recordsDir()
	if err != nil {
		return false
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() == "dirs.json" || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := file.Read(filepath.Join(dir, e.Name()), maxFile)
		var r Record
		if err == nil && json.Unmarshal(data, &r) == nil && r.Trust != nil && r.Trust.Path == path && r.Trust.Created {
			return true
		}
	}
	return false
}

// Forget removes the record of the file at the physical path, and the
// records' directory once it holds none.
func Forget(path string) error {
	at, err := recordFile(path)
	if err == nil {
		err = os.Remove(at)
		removeRecordsDir(filepath.Dir(at))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// createdFile lists the directories above the records' (loophook's in the
// user's configuration directory, and that one) that install created to
// keep them: beside the records, not among them.
func createdFile(records string) string {
	return filepath.Join(filepath.Dir(records), "installed-dirs.json")
}

// makeRecordsDir makes the records' directory, noting the directories
// above it that it creates.
func makeRecordsDir(dir string) error {
	missing := missingDirs(filepath.Join(dir, "record"))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if len(missing) < 2 {
		return nil
	}
	data, err := json.Marshal(missing[1:])
	if err != nil {
		return err
	}
	return file.Write(createdFile(dir), append(data, '\n'), 0o600)
}

// removeRecordsDir removes the records' directory once it holds none, and
// then the directories above it that install created, once empty.
func removeRecordsDir(dir string) {
	if os.Remove(dir) != nil {
		return // not empty
	}
	at := createdFile(dir)
	data, err := file.Read(at, maxFile)
	if err != nil {
		return
	}
	var created []string
	if json.Unmarshal(data, &created) != nil {
		return
	}
	os.Remove(at)
	for _, d := range created { // the deepest first
		if os.Remove(d) != nil {
			return
		}
	}
}

// Directories install created are kept apart from the files' records, in
// one list: a directory one install created may hold another's file (a
// Copilot project install's .github, then its local one's), and goes with
// whichever uninstall finds it empty.

// dirsFile is the list of directories install created.
func dirsFile() (string, error) {
	dir, err := recordsDir()
	return filepath.Join(dir, "dirs.json"), err
}

func readDirs() []string {
	at, err := dirsFile()
	if err != nil {
		return nil
	}
	data, err := file.Read(at, maxFile)
	if err != nil {
		return nil
	}
	var dirs []string
	json.Unmarshal(data, &dirs)
	return dirs
}

func writeDirs(dirs []string) error {
	at, err := dirsFile()
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		if err := os.Remove(at); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		removeRecordsDir(filepath.Dir(at))
		return nil
	}
	if err := makeRecordsDir(filepath.Dir(at)); err != nil {
		return err
	}
	data, err := json.MarshalIndent(dirs, "", "  ")
	if err != nil {
		return err
	}
	return file.Write(at, append(data, '\n'), 0o600)
}

// RecordDirs notes directories install created, by their physical paths.
func RecordDirs(created []string) error {
	if len(created) == 0 {
		return nil
	}
	dirs := readDirs()
	for _, d := range created {
		if d = Physical(d); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return writeDirs(dirs)
}

// RemoveDirs removes the directories install created above the files at
// paths, deepest first, where they are empty now; it returns those it
// removed. A directory install created that holds something stays listed,
// for a later uninstall to find empty.
func RemoveDirs(paths ...string) (removed []string) {
	dirs := readDirs()
	if len(dirs) == 0 {
		return nil
	}
	var above []string
	for _, p := range paths {
		p = Physical(p)
		for _, d := range dirs {
			if strings.HasPrefix(p, d+string(filepath.Separator)) && !slices.Contains(above, d) {
				above = append(above, d)
			}
		}
	}
	slices.SortFunc(above, func(a, b string) int { return len(b) - len(a) })
	for _, d := range above {
		fi, err := os.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil || !fi.IsDir():
			continue // not the directory install made: leave it listed
		case os.Remove(d) != nil:
			continue // not empty
		default:
			removed = append(removed, d)
		}
		dirs = slices.DeleteFunc(dirs, func(x string) bool { return x == d })
	}
	writeDirs(dirs)
	return removed
}

// missingDirs are the directories above path that do not exist: those a
// write of path creates, the deepest first.
func missingDirs(path string) []string {
	var missing []string
	for d := filepath.Dir(path); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) || filepath.Dir(d) == d {
			return missing
		}
		missing = append(missing, d)
	}
}

// keysAdded are the members at the first two levels of after that before
// lacks, as JSON pointers: what install added beside its handlers.
func keysAdded(before, after map[string]any) []string {
	var added []string
	for _, k := range slices.Sorted(maps.Keys(after)) {
		p := "/" + escapePointer(k)
		b, had := before[k]
		if !had {
			added = append(added, p)
		}
		inner, ok := after[k].(map[string]any)
		if !ok {
			continue
		}
		was, _ := b.(map[string]any)
		for _, k2 := range slices.Sorted(maps.Keys(inner)) {
			if _, ok := was[k2]; !ok || !had {
				added = append(added, p+"/"+escapePointer(k2))
			}
		}
	}
	return added
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
