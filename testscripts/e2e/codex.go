//go:build e2e

package e2e

// The Codex tests run the real Codex CLI (npm @openai/codex, pinned below)
// headless, `codex exec`, against codexAPI, a stand-in for the OpenAI
// Responses API on 127.0.0.1, in a scratch project with its own HOME and
// CODEX_HOME (codexSession). The pinned package is installed once with npm
// into cacheDir()/codex-<version> (about 400 MB; the launcher needs node);
// when npm or its registry cannot be reached the tests skip, loudly, or
// fail with LOOPHOOK_E2E_REQUIRE=1, as the Claude Code tests do.
//
//	go test -tags e2e -run Codex -v ./testscripts/e2e/
//
// codex-cli/PROTOCOL.md (in the shared docs) is what this harness was
// built from; TestCodexHarness checks the parts of it the loophook tests
// rely on.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The Codex CLI release the Codex tests run against, pinned for the same
// reasons as Claude Code (codex-cli/PROTOCOL.md was observed on it). npm
// checks each tarball against the registry's integrity; the integrities
// below, read back from the install's package-lock.json, make sure the
// registry served the very packages PROTOCOL.md was written from.
const (
	codexPackage = "@openai/codex"
	codexVersion = "0.171.0"
	codexHost    = "Codex CLI " + codexVersion

	codexIntegrity       = "sha512-1IOFzL2Xg86tLdw6kDo3GoKbkQENgQi7TI6rlEvN132R7ngSw7SNOIQoTcnKzSZZ8kf9N9GynCweSoaFbqk2Eg=="
	codexNativeIntegrity = "sha512-l66NZkQgdk2C3pbcfULDz42yEUB581MVA6I+Y43Wp4OIqEy73HCdmZ0GTjeAHY2ycuH4N00d9VsLrwT1jxshTw=="
)

// The installed tree: the npm launcher, and the native binary it starts,
// which npm brings as the optional dependency @openai/codex-linux-x64.
var (
	codexLauncher = filepath.Join("node_modules", "@openai", "codex", "bin", "codex.js")
	codexNative   = filepath.Join("node_modules", "@openai", "codex-linux-x64", "vendor",
		"x86_64-unknown-linux-musl", "bin", "codex")
)

// codexSuite is the Codex tests' one-time setup: the pinned Codex's npm
// launcher, made on first use, so that running only the Claude tests
// installs nothing.
var codexSuite = hostSuite[string]{host: codexHost, verb: "installed", fetch: installCodex, where: func(l string) string { return l }}

// codexSetup returns the pinned Codex's npm launcher (codexSuite.get).
func codexSetup(t *testing.T) (launcher string) { return codexSuite.get(t) }

// installCodex returns the launcher of the pinned Codex, installing it
// with npm (npm's own configured registry) into the cache the first time
// and reusing it afterwards, with no network at all.
func installCodex(ctx context.Context) (string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("%w: the Codex tests run the linux-x64 build of %s@%s, not %s/%s",
			errUnsupported, codexPackage, codexVersion, runtime.GOOS, runtime.GOARCH)
	}
	// The launcher is a Node script; node comes with npm.
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("%w: node is not installed: %v", errUnreachable, err)
	}
	v, integrity, err := release(ctx, codexPackage, codexVersion, codexIntegrity)
	if err != nil {
		return "", err
	}
	// The native package's integrity is known for the pinned release; for
	// the newest, npm checked it against the registry's.
	native := codexNativeIntegrity
	if v != codexVersion {
		native = ""
	}
	dir, err := cachedInstall{
		name:  "codex-" + v,
		whole: codexInstalled,
		install: func(work, dir string) error {
			return npmInstall(ctx, work, dir, codexPackage+"@"+v, npmTimeout,
				// No scripts: the packages have none, and a test has no business
				// running a registry's code outside the binary under test.
				"--ignore-scripts", "--include=optional")
		},
		check: func(dir string) error { return checkCodexInstall(dir, integrity, native) },
	}.get()
	if err != nil {
		return "", err
	}
	// Asked of the cached copy, which stays whatever the answer: a good
	// download is never thrown away for what a run of it printed.
	if err := checkCodexRuns(ctx, dir, v); err != nil {
		return "", err
	}
	return filepath.Join(dir, codexLauncher), nil
}

// codexInstalled says whether dir holds a finished install. Only a
// checked install is ever renamed into place, so both files will do.
func codexInstalled(dir string) bool {
	for _, f := range []string{codexLauncher, codexNative} {
		if !isRegular(filepath.Join(dir, f)) {
			return false
		}
	}
	return true
}

// checkCodexInstall checks that npm installed the pinned packages, the
// native binary included (npm skips an optional dependency it cannot
// install without failing).
func checkCodexInstall(dir, integrity, native string) error {
	locked, err := readNPMLock(dir, "package-lock.json")
	if err != nil {
		return err
	}
	for name, want := range map[string]string{
		"node_modules/@openai/codex":           integrity,
		"node_modules/@openai/codex-linux-x64": native,
	} {
		if got := locked[name].Integrity; want != "" && got != want {
			return fmt.Errorf("npm installed %s with integrity %q, want %s", name, got, want)
		}
	}
	if !codexInstalled(dir) {
		return fmt.Errorf("npm installed no %s under %s (was the optional dependency omitted? npm config get omit)",
			codexNative, dir)
	}
	return nil
}

// checkCodexRuns checks that the launcher in dir runs the pinned Codex, in
// a home of its own: run with the real one, Codex writes into it
// (~/.codex/tmp).
func checkCodexRuns(ctx context.Context, dir, version string) error {
	home, err := os.MkdirTemp("", "codex-e2e-home-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, codexLauncher), "--version")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CODEX_HOME=" + filepath.Join(home, ".codex")}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if got, ok := codexVersionOf(out); err != nil || !ok || got != version {
		return fmt.Errorf("codex --version: %v: %q %q, want codex-cli %s", err, out, stderr.String(), version)
	}
	return nil
}

// codexVersionOf reads the version from what `codex --version` printed:
// its "codex-cli X" line, among whatever warnings Codex prints around it
// (one when CODEX_HOME is missing or HOME is under /tmp).
func codexVersionOf(out []byte) (string, bool) {
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "codex-cli "); ok && v != "" && !strings.ContainsAny(v, " \t") {
			return v, true
		}
	}
	return "", false
}

// codexSession is one scratch project set up for Codex: its own HOME and
// CODEX_HOME, a config.toml that points Codex at a Responses API stand-in
// on 127.0.0.1, and whatever hooks a registration put in place. exec and
// resume run Codex in it; every run talks to the same stand-in, which plays
// the scripted turns in order across runs.
type codexSession struct {
	t         *testing.T
	launcher  string
	p         *project
	codexHome string
	api       *codexAPI
	runs      []*codexRun
}

// A codexRegistration puts the hooks under test in place in a session
// whose config.toml already points Codex at the stand-in: it writes a
// hooks file, project and hook trust, or runs an installer that does.
type codexRegistration func(t *testing.T, s *codexSession)

// newCodexSession makes the project (state as its .loop/state.json, none
// when nil), starts the stand-in playing turns, writes the base
// config.toml and lets register put the hooks in place.
func newCodexSession(t *testing.T, state any, turns []turn, register codexRegistration) *codexSession {
	t.Helper()
	launcher := codexSetup(t)
	p := newProject(t, state)
	s := &codexSession{
		t:         t,
		launcher:  launcher,
		p:         p,
		codexHome: filepath.Join(p.home, ".codex"),
	}
	s.api = newCodexAPI(t, p.statePath(), turns)
	t.Cleanup(func() {
		if t.Failed() {
			s.log()
		}
	})
	if err := writeFile(s.configPath(), []byte(codexConfig(s.api.URL()+"/v1"))); err != nil {
		t.Fatal(err)
	}
	if register != nil {
		register(t, s)
	}
	return s
}

// env is the whole environment Codex runs with, and so the hooks too
// (Codex adds to PATH and names its npm package). Nothing is inherited but PATH (node, and the
// shell's tools for the hooks), so neither the developer's home, config
// and credentials nor the variables of an agent session the tests are run
// from can leak in. An installer run for the session should get it too,
// so that it writes where Codex reads.
func (s *codexSession) env() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.p.home,
		"CODEX_HOME=" + s.codexHome,
		"TMPDIR=" + s.p.tmp,
		"OPENAI_API_KEY=dummy", // the provider's env_key: must be set, to anything
		"NO_COLOR=1",
	}
}

// configPath is the user config.toml, where Codex also records trust.
func (s *codexSession) configPath() string { return filepath.Join(s.codexHome, "config.toml") }

// projectHooksPath is the project-scope hooks file Codex reads in a
// trusted project.
func (s *codexSession) projectHooksPath() string {
	return filepath.Join(s.p.dir, ".codex", "hooks.json")
}

// exec runs `codex exec prompt`, a new session.
func (s *codexSession) exec(prompt string) *codexRun {
	s.t.Helper()
	return s.runCodex("exec", "--strict-config", prompt)
}

// resume runs `codex exec resume --last prompt`: the newest session of this
// project goes on, with its history, as a new turn.
func (s *codexSession) resume(prompt string) *codexRun {
	s.t.Helper()
	return s.runCodex("exec", "resume", "--last", "--strict-config", prompt)
}

// codexConfig is the user config.toml for the stand-in at baseURL
// (PROTOCOL.md §10): no retries, so that an HTTP 400 ends a runaway at
// once; no update check and no analytics, so that nothing else is called.
func codexConfig(baseURL string) string {
	return `model = "gpt-5.5"
model_provider = "e2e"
approval_policy = "never"
sandbox_mode = "workspace-write"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.e2e]
name = "e2e stand-in"
base_url = ` + tomlString(baseURL) + `
wire_api = "responses"
env_key = "OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0
`
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// codexRunTimeout bounds one `codex exec`: a session here takes seconds; a
// hook that hangs or a loop that never ends must fail the test, not hang it.
const codexRunTimeout = 2 * time.Minute

// codexRun is what one `codex exec` left behind.
type codexRun struct {
	args     []string
	stdout   string
	stderr   string
	exitCode int
	took     time.Duration
	// requests are the turn requests the stand-in answered during this run
	// (and not those refused at the cap), in order.
	requests []*codexRequest
}

// name is the command run, without its flags and prompt: "codex exec",
// "codex exec resume".
func (r *codexRun) name() string {
	name := "codex"
	for _, a := range r.args {
		if strings.HasPrefix(a, "-") {
			break
		}
		name += " " + a
	}
	return name
}

// hookLine is one hook outcome as `codex exec` reports it on stderr, the
// only place it does (`--json` events and the rollout carry none).
type hookLine struct {
	event  string // "Stop", "SessionStart"
	status string // "Completed", "Blocked", "Failed", "Stopped"
}

// hooks returns the outcomes of the hooks that ran, in order: Codex prints
// "hook: <Event>" when a hook starts and "hook: <Event> <Status>" when it
// ends; only the ends are kept.
func (r *codexRun) hooks() []hookLine {
	var out []hookLine
	for _, line := range strings.Split(r.stderr, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "hook: ")
		if !ok {
			continue
		}
		if f := strings.Fields(rest); len(f) == 2 {
			out = append(out, hookLine{event: f[0], status: f[1]})
		}
	}
	return out
}

// hookStatuses returns the outcomes of one event's hooks, in order.
func (r *codexRun) hookStatuses(event string) []string {
	var out []string
	for _, h := range r.hooks() {
		if h.event == event {
			out = append(out, h.status)
		}
	}
	return out
}

// runCodex runs the launcher with args in the session's project, sealed
// the way s.env says, and returns what it left. It fails the test on a
// timeout; a non-zero exit is the caller's to judge.
func (s *codexSession) runCodex(args ...string) *codexRun {
	t := s.t
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), codexRunTimeout)
	defer cancel()

	run := &codexRun{args: args}
	cmd := exec.CommandContext(ctx, "node", append([]string{s.launcher}, args...)...)
	cmd.Dir = s.p.dir
	cmd.Env = s.env()
	// Stdin /dev/null: exec reads stdin (and says so) and appends what it
	// reads to the prompt.
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// node starts the native binary, which starts the hooks: on timeout
	// kill the whole group, and don't wait for pipes a stray child holds.
	ownGroup(cmd)

	before := len(s.api.turnRequests())
	start := time.Now()
	err := cmd.Run()
	run.took = time.Since(start)
	run.stdout, run.stderr = stdout.String(), stderr.String()
	run.requests = s.api.turnRequests()[before:]
	s.runs = append(s.runs, run)
	t.Logf("%s ran %v", run.name(), run.took.Round(time.Millisecond))
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("codex %q did not finish within %v\nstderr: %s", args, codexRunTimeout, run.stderr)
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		run.exitCode = exit.ExitCode()
	case err != nil:
		t.Fatalf("codex %q: %v\nstderr: %s", args, err, run.stderr)
	}
	return run
}

// log tells a failing test's reader what happened in the session.
func (s *codexSession) log() {
	t := s.t
	for i, req := range s.api.turnRequests() {
		t.Logf("turn request %d (%s, turn %s): last user message %q; contexts %q",
			i+1, req.Meta.HistoryInitialization, req.Meta.TurnID, req.Req.lastUser(), req.Req.sessionContexts())
	}
	for _, req := range s.api.otherRequests() {
		t.Logf("other request: %s %s metadata %+v", req.Method, req.Path, req.Meta)
	}
	for _, r := range s.runs {
		t.Logf("codex %q: exit %d\nstdout: %s\nstderr: %s", r.args, r.exitCode, r.stdout, r.stderr)
	}
}
