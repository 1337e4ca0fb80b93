package install

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook/host"
)

// snapshot lists every directory, file (with a hash of its bytes) and link
// under each root, absent roots too.
func snapshot(t *testing.T, roots ...string) string {
	t.Helper()
	var lines []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && path == root {
					lines = append(lines, "absent "+root)
					return nil
				}
				return err
			}
			switch {
			case d.Type()&fs.ModeSymlink != 0:
				to, _ := os.Readlink(path)
				lines = append(lines, "link "+path+" -> "+to)
			case d.IsDir():
				lines = append(lines, "dir "+path)
			default:
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				lines = append(lines, fmt.Sprintf("file %s %x %q", path, sha256.Sum256(data), data))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return strings.Join(lines, "\n")
}

// sandbox points the home, the hosts' homes and the records at a fresh
// directory, and makes a project (a git work tree) in it.
func sandbox(t *testing.T) (home, project string) {
	t.Helper()
	dir := t.TempDir()
	home, project = filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{home, filepath.Join(project, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("USERPROFILE", home)
	t.Setenv("APPDATA", filepath.Join(dir, "config"))
	t.Setenv("CODEX_HOME", filepath.Join(home, ".codex"))
	for _, v := range []string{"CLAUDE_CONFIG_DIR", "COPILOT_HOME", "QWEN_HOME", "GEMINI_CLI_HOME", "PI_CODING_AGENT_DIR", "LOOPHOOK_BIN"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	return home, project
}

// installed runs install or uninstall of h in scope for the project, and
// fails the test on an error.
func installed(t *testing.T, h host.Host, scope, project string, uninstall bool) *Plan {
	t.Helper()
	p, err := prepare(request{Host: h, Scope: scope, Wd: project, Bin: "/opt/loophook/bin/loophook", Uninstall: uninstall})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(); err != nil {
		t.Fatal(err)
	}
	return p
}

// personsFiles are the files a person may have before install, for a
// host: none, {}, an empty env, the block cap at loophook's own value, and
// a lived-in file with an empty "hooks".
func personsFiles(reg *host.Registration) map[string]string {
	if reg.Extension != nil {
		// The file is loophook's alone: the person's are beside it (mine.js).
		return map[string]string{"none": "", "lived-in": "export default function (pi) {}\n"}
	}
	files := map[string]string{"none": "", "empty": "{}\n"}
	other := `"model": "x"`
	if reg.TopKeys != nil {
		other = `"description": "mine"` // the only other key the host reads
	} else {
		files["empty env"] = "{\"env\": {}}\n"
	}
	if c := reg.BlockCap; c != nil && c.Top {
		files["own cap"] = fmt.Sprintf("{\n  %q: %s\n}\n", c.Key, c.Value)
	} else if c != nil {
		files["own cap"] = fmt.Sprintf("{\n  \"env\": {\n    %q: %q\n  }\n}\n", c.Key, c.Value)
	}
	if !reg.TopLevelEvents {
		files["lived-in"] = "{\n  " + other + ",\n  \"hooks\": {}\n}\n"
	}
	return files
}

// TestUninstallGivesBackEveryByte: for every host, scope and file a person
// may have, install then uninstall leaves every file and directory of the
// project and the home as it was.
func TestUninstallGivesBackEveryByte(t *testing.T) {
	for _, h := range host.Installable() {
		for _, s := range h.Install.Scopes {
			files := personsFiles(h.Install)
			names := make([]string, 0, len(files))
			for n := range files {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, name := range names {
				t.Run(h.Name+"/"+s.Name+"/"+name, func(t *testing.T) {
					home, project := sandbox(t)
					path, _, err := hostPath(h, s.Name, project, "")
					if err != nil {
						t.Fatal(err)
					}
					if name != "none" {
						if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
							t.Fatal(err)
						}
						at := path
						if h.Install.Extension != nil {
							at = filepath.Join(filepath.Dir(path), "mine.js")
						}
						if err := os.WriteFile(at, []byte(files[name]), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					before := snapshot(t, home, project)
					installed(t, h, s.Name, project, false)
					if snapshot(t, home, project) == before {
						t.Fatal("install changed nothing")
					}
					installed(t, h, s.Name, project, true)
					if after := snapshot(t, home, project); after != before {
						t.Errorf("after install and uninstall:\n%s\nwant:\n%s", after, before)
					}
					if rec, _ := ReadRecord(path); rec != nil {
						t.Errorf("the record stays: %+v", rec)
					}
				})
			}
		}
	}
}

// TestRecordsInterleaved: installs into several projects, scopes and
// hosts, undone in another order, leave everything as it was; directories
// one install created and another's file still fills go with the last.
func TestRecordsInterleaved(t *testing.T) {
	home, a := sandbox(t)
	b := filepath.Join(filepath.Dir(a), "other")
	if err := os.MkdirAll(filepath.Join(b, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(b, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, ".claude", "settings.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, home, a, b)
	type step struct {
		host, scope, project string
	}
	steps := []step{
		{"claude", "project", a}, {"copilot", "project", a}, {"claude", "project", b},
		{"copilot", "local", a}, {"codex", "project", a}, {"codex", "user", b},
		{"claude", "user", a}, {"claude", "local", b},
	}
	for _, s := range steps {
		h, _ := host.Lookup(s.host)
		installed(t, h, s.scope, s.project, false)
	}
	for _, i := range []int{2, 0, 5, 1, 7, 4, 6, 3} {
		s := steps[i]
		h, _ := host.Lookup(s.host)
		installed(t, h, s.scope, s.project, true)
	}
	if after := snapshot(t, home, a, b); after != before {
		t.Errorf("after the installs and uninstalls:\n%s\nwant:\n%s", after, before)
	}
	// Nor is a record left: the records' directory goes with the last.
	dir, _ := recordsDir()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the records' directory %s stays: %v", dir, err)
	}
}

// TestUninstallWithoutRecord: an install made before records is undone
// as it always was: a file holding nothing else goes.
func TestUninstallWithoutRecord(t *testing.T) {
	_, project := sandbox(t)
	h, _ := host.Lookup("claude")
	p := installed(t, h, "project", project, false)
	if err := Forget(p.record.Path); err != nil {
		t.Fatal(err)
	}
	installed(t, h, "project", project, true)
	if _, err := os.Stat(p.File.Path); !os.IsNotExist(err) {
		t.Errorf("the settings file stays: %v", err)
	}
	// Nor does installing again over it start a record.
	if err := os.WriteFile(p.File.Path, p.File.After, 0o644); err != nil {
		t.Fatal(err)
	}
	if q := installed(t, h, "project", project, false); q.record != nil {
		t.Errorf("a record of an older install: %+v", q.record)
	}
}
