//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The Factory Droid tests run the real binary headless (`droid exec`)
// against the Chat Completions stand-in (chat_api.go), as
// shared/factory-droid/PROTOCOL.md §11 says, and one its terminal UI
// (droid_ui.go):
//
//	go test -tags e2e -run Droid ./testscripts/e2e/ -v

// The Droid release the tests pin. The @factory/cli launcher's own
// platform package is missing from the registry (PROTOCOL.md §1), so the
// suite takes the native package itself: one standalone executable of
// about 254 MB, downloaded once with `npm pack` and cached.
const (
	droidPackage   = "@factory/cli-linux-x64"
	droidVersion   = "0.225.2"
	droidIntegrity = "sha512-1ctPmJwAqs0s/QNiaFp6vxr90AQa7j3VgFzLns9OaTffzOCd4csExNpL4w99tNlBLmQbbYqp0rUHlAhoD8R31A=="
	droidModel     = "e2e-model"
)

// droidCLI is a fetched Droid: its version and executable.
type droidCLI struct{ version, bin string }

// fetchDroid returns the Droid release to run, fetching it the first time.
func fetchDroid(ctx context.Context) (droidCLI, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return droidCLI{}, fmt.Errorf("%w: the Droid tests run %s, which runs on linux/amd64 only, not %s/%s",
			errUnsupported, droidPackage, runtime.GOOS, runtime.GOARCH)
	}
	v, integrity, err := release(ctx, droidPackage, droidVersion, droidIntegrity)
	if err != nil {
		return droidCLI{}, err
	}
	bin, err := fetchExecutable(ctx, "factory-cli-linux-x64-"+v, droidPackage+"@"+v, integrity, "bin/droid")
	if err != nil {
		return droidCLI{}, err
	}
	return droidCLI{version: v, bin: bin}, nil
}

// droidRunTimeout bounds one `droid exec`. The longest scenario (51 turns)
// takes well under a minute on an idle machine, minutes on a busy one.
const droidRunTimeout = 8 * time.Minute

// droidEnv is the whole environment Droid runs with: nothing inherited
// but PATH, so no FACTORY_*/DROID_* of the developer's leaks in. Airgap
// Mode blocks every call to Factory's services (a run takes about a
// second instead of seven, spent on lookups that fail).
func droidEnv(p *project) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + p.home,
		"TMPDIR=" + p.tmp,
		"XDG_CACHE_HOME=" + filepath.Join(p.home, ".cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(p.home, ".config"),
		"FACTORY_AIRGAP_ENABLED=true",
		"FACTORY_DISABLE_KEYRING=true",
	}
}

// writeDroidSettings writes ~/.factory/settings.json with the stand-in as
// a custom model (PROTOCOL.md §11), and the settings more, unless the
// file exists.
func writeDroidSettings(t *testing.T, p *project, baseURL string, more map[string]any) {
	t.Helper()
	path := filepath.Join(p.home, ".factory", "settings.json")
	if _, err := os.Stat(path); err == nil {
		return
	}
	settings := map[string]any{"customModels": []any{map[string]any{
		"model": droidModel, "displayName": "e2e stand-in", "baseUrl": baseURL + "/v1",
		"apiKey": "sk-e2e-dummy", "provider": "generic-chat-completion-api", "maxOutputTokens": 1024,
	}}}
	maps.Copy(settings, more)
	if err := writeJSON(path, settings); err != nil {
		t.Fatal(err)
	}
}

// droidRun is what one `droid exec` left behind.
type droidRun struct {
	exitCode       int
	stdout, stderr string
	killed         bool // ended by the runner: the stand-in saw a runaway
}

// runDroid runs `droid exec -m custom:e2e-model [flags] prompt` in the
// project, stdin /dev/null. Droid never ends a loop whose hook keeps
// blocking, even when the model API fails (PROTOCOL.md §7): when the
// stand-in passes its limit the runner kills the process group.
func runDroid(t *testing.T, cli droidCLI, p *project, api *chatAPI, prompt string, flags ...string) *droidRun {
	t.Helper()
	writeDroidSettings(t, p, api.URL(), nil)
	ctx, cancel := context.WithTimeout(t.Context(), droidRunTimeout)
	defer cancel()
	args := append([]string{"exec", "-m", "custom:" + droidModel}, flags...)
	cmd := exec.CommandContext(ctx, cli.bin, append(args, prompt)...)
	cmd.Dir = p.dir
	cmd.Env = droidEnv(p)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ownGroup(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("droid exec: %v", err)
	}
	run := &droidRun{}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-api.runaway:
		run.killed = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	run.stdout, run.stderr = stdout.String(), stderr.String()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("droid exec did not finish within %v\nstderr: %s", droidRunTimeout, run.stderr)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("droid exec: %v\nstderr: %s", err, run.stderr)
	}
	run.exitCode = cmd.ProcessState.ExitCode()
	t.Logf("droid %s exec ran %v, exit %d", cli.version, time.Since(start).Round(time.Millisecond), run.exitCode)
	return run
}

// droidSessions returns the paths of the transcripts Droid keeps for the
// project (~/.factory/sessions/<cwd, / as ->/<id>.jsonl), oldest first.
func droidSessions(p *project) []string {
	dir := filepath.Join(p.home, ".factory", "sessions", strings.ReplaceAll(p.dir, "/", "-"))
	paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, path := range paths {
		if fi, err := os.Stat(path); err == nil {
			files = append(files, file{path, fi.ModTime()})
		}
	}
	slices.SortStableFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	var out []string
	for _, f := range files {
		out = append(out, f.path)
	}
	return out
}

// droidSuite is the Droid tests' one-time setup.
var droidSuite = hostSuite[droidCLI]{
	host: "Factory Droid " + droidVersion, verb: "fetched", fetch: fetchDroid,
	where: func(c droidCLI) string { return c.bin },
}

func setupDroid(t *testing.T) droidCLI { return droidSuite.get(t) }
