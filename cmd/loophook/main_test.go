package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/internal/testhome"
)

var update = flag.Bool("u", false, "update the expected output inside the testscripts")

func TestMain(m *testing.M) {
	// The tests run in a home of their own; each script in one of its own.
	testscript.Main(testhome.Wrap(m), map[string]func(){
		"loophook": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		"approve":  func() { os.Exit(approveMain()) },
	})
}

// TestScripts runs testscripts/<area>/*.txtar, one subtest per area.
func TestScripts(t *testing.T) {
	areas, err := filepath.Glob("../../testscripts/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range areas {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		if files, _ := filepath.Glob(filepath.Join(dir, "*.txtar")); len(files) == 0 {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			testscript.Run(t, params(dir))
		})
	}
}

func params(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// No test touches the real home or inherits a project.
			env.Setenv("HOME", filepath.Join(env.WorkDir, ".home"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".home", ".config"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".home", ".cache"))
			env.Setenv("NO_COLOR", "1")
			// Windows's homes (os.UserHomeDir, UserCacheDir, UserConfigDir).
			env.Setenv("USERPROFILE", filepath.Join(env.WorkDir, ".home"))
			env.Setenv("LOCALAPPDATA", filepath.Join(env.WorkDir, ".home", ".cache"))
			env.Setenv("APPDATA", filepath.Join(env.WorkDir, ".home", ".config"))
			if runtime.GOOS == "windows" {
				// $WORK with forward slashes, as loophook shows paths, and
				// as JSON takes them unescaped (expand).
				env.Setenv("WORK", filepath.ToSlash(env.WorkDir))
				// For the scripts of checks without Git Bash: its sh, and
				// a PATH without it or git.
				if sh, err := exec.LookPath("sh"); err == nil {
					env.Setenv("SH_EXE", sh)
				}
				env.Setenv("PATH_NO_SH", pathWithout(env.Getenv("PATH"), "sh.exe", "git.exe"))
				// The work directory spelled otherwise: c:/USERS/..., for
				// what must key by the directory, not its spelling.
				w := filepath.ToSlash(env.WorkDir)
				env.Setenv("WORK_SPELLED_OTHERWISE", strings.ToLower(w[:1])+strings.ToUpper(w[1:]))
			}
			// The example states that ship with loophook, read in place.
			examples, err := filepath.Abs("../../schema/examples")
			if err != nil {
				return err
			}
			env.Setenv("EXAMPLES", examples)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"cpglob":   cpglob,
			"expand":   expand,
			"sleep":    sleep,
			"genfile":  genfile,
			"backdate": backdate,
			"mtime":    mtime,
			"sparse":   sparse,
			"now":      now,
			"appendx":  appendx,
			"tree":     tree,
			"jsonget":  jsonget,
			"memdir":   memdir,
		},
		Condition: ruleCondition,
	}
}

// pathWithout is a PATH list without the directories that hold any of
// names.
func pathWithout(path string, names ...string) string {
	var kept []string
	for _, dir := range filepath.SplitList(path) {
		has := false
		for _, n := range names {
			if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
				has = true
			}
		}
		if !has {
			kept = append(kept, dir)
		}
	}
	return strings.Join(kept, string(filepath.ListSeparator))
}

// ruleCondition is [rule:NAME]: true when criteria decides rule NAME for a
// loop that a dialect reads as waiting, failed or exhausted. The dialects
// tell the loop model these before every rule that reads them has landed;
// a script's lines under the condition run as soon as criteria has it.
func ruleCondition(cond string) (bool, error) {
	name, ok := strings.CutPrefix(cond, "rule:")
	if !ok {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	l := &criteria.Loop{Criteria: criteria.CriteriaOf(criteria.Criterion{Name: "c"})}
	want := criteria.Rule(name)
	switch name {
	case "waiting":
		l.Waiting = "a person must act"
	case "failed":
		l.Failed = "it broke"
	case "exhausted":
		l.Exhausted = "retries exhausted"
		want = criteria.RuleCircuitOpen
	default:
		return false, fmt.Errorf("unknown rule condition %q", cond)
	}
	v := criteria.Decide(criteria.Evaluation{Path: "state.json", Loop: l}, criteria.DefaultLimits())
	return v.Rule == want, nil
}

// expand copies a file, replacing $VARS with the script's environment, so
// that hook inputs can name $WORK paths.
func expand(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! expand")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: expand SRC DST")
	}
	data := ts.ReadFile(args[0])
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(os.Expand(data, ts.Getenv)), 0o644))
}

// jsonget sets VAR to the string at a path of keys and indexes in a JSON
// file, such as the command line install wrote for a host:
//
//	jsonget FILE hooks/Stop/0/hooks/0/command VAR
func jsonget(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonget FILE PATH VAR")
	}
	var v any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &v))
	for _, k := range strings.Split(args[1], "/") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				ts.Fatalf("jsonget: no element %s in %s", k, args[1])
			}
			v = x[i]
		}
	}
	s, ok := v.(string)
	if !ok {
		ts.Fatalf("jsonget: %s in %s is %v, not a string", args[1], args[0], v)
	}
	ts.Setenv(args[2], s)
}

// cpglob copies the one file a glob pattern matches, for names a script
// cannot know, such as a timestamp's:
//
//	cpglob PATTERN DST
func cpglob(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! cpglob")
	}
	if len(args) != 2 {
		ts.Fatalf("usage: cpglob PATTERN DST")
	}
	matches, err := filepath.Glob(ts.MkAbs(args[0]))
	ts.Check(err)
	if len(matches) != 1 {
		ts.Fatalf("cpglob: %s matches %d files, want 1: %q", args[0], len(matches), matches)
	}
	data, err := os.ReadFile(matches[0])
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o644))
}

// backdate sets files' times to DAYS days ago, as if the hook had last
// written them then:
//
//	backdate DAYS FILE...
func backdate(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! backdate")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: backdate DAYS FILE...")
	}
	days, err := strconv.Atoi(args[0])
	ts.Check(err)
	when := time.Now().Add(-time.Duration(days) * 24 * time.Hour)
	for _, name := range args[1:] {
		ts.Check(os.Chtimes(ts.MkAbs(name), when, when))
	}
}

// genfile writes a file too big or too binary to keep in a script:
//
//	genfile FILE PART...
//
// where each PART is TEXT (with \xHH for any byte), -repeat N TEXT (TEXT N
// times, each {i} in it replaced by the count from 0), or -bytes N (N
// pseudo-random bytes, the same on every run).
func genfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! genfile")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: genfile FILE PART...")
	}
	path := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
	f, err := os.Create(path)
	ts.Check(err)
	w := bufio.NewWriter(f)
	count := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			ts.Fatalf("genfile: bad count %q", s)
		}
		return n
	}
	for parts := args[1:]; len(parts) > 0; {
		switch parts[0] {
		case "-repeat":
			if len(parts) < 3 {
				ts.Fatalf("genfile: -repeat N TEXT")
			}
			text := unescapeBytes(parts[2])
			for i := range count(parts[1]) {
				w.WriteString(strings.ReplaceAll(text, "{i}", strconv.Itoa(i)))
			}
			parts = parts[3:]
		case "-bytes":
			if len(parts) < 2 {
				ts.Fatalf("genfile: -bytes N")
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for range count(parts[1]) {
				w.WriteByte(byte(rng.Uint32()))
			}
			parts = parts[2:]
		default:
			w.WriteString(unescapeBytes(parts[0]))
			parts = parts[1:]
		}
	}
	ts.Check(w.Flush())
	ts.Check(f.Close())
}

var hexEscape = regexp.MustCompile(`\\x[0-9a-fA-F]{2}`)

// unescapeBytes turns each \xHH into its byte, leaving every other backslash
// alone so that JSON escapes such as \n pass through.
func unescapeBytes(s string) string {
	return hexEscape.ReplaceAllStringFunc(s, func(m string) string {
		b, _ := hex.DecodeString(m[2:])
		return string(b)
	})
}

// sleep waits for a duration: sleep 500ms.
func sleep(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sleep DURATION")
	}
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	time.Sleep(d)
}

// mtime sets files' access and modification times to TIME (RFC 3339), as
// an agent puts a file's time back after an edit:
//
//	mtime 2020-01-01T00:00:00Z FILE...
func mtime(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mtime TIME FILE...")
	}
	when, err := time.Parse(time.RFC3339Nano, args[0])
	ts.Check(err)
	for _, name := range args[1:] {
		ts.Check(os.Chtimes(ts.MkAbs(name), when, when))
	}
}

// sparse makes FILE a sparse file of SIZE bytes (8T, 512M...), as
// truncate -s does: nothing written, no disk used.
func sparse(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sparse FILE SIZE")
	}
	units := map[byte]int64{'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40}
	n, unit := args[1], int64(1)
	if u, ok := units[n[len(n)-1]]; ok {
		n, unit = n[:len(n)-1], u
	}
	size, err := strconv.ParseInt(n, 10, 64)
	ts.Check(err)
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	ts.Check(f.Truncate(size * unit))
}
