package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("u", false, "update the expected output inside the testscripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"loophook": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
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
			env.Setenv("NO_COLOR", "1")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"expand": expand,
		},
	}
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
