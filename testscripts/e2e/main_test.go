//go:build e2e

// Package e2e runs loophook as the hooks of the real Claude Code binary
// against a scripted stand-in for the Anthropic Messages API:
//
//	go test -tags e2e ./testscripts/e2e/ -v
//
// The pinned Claude Code is fetched once with `npm pack` and cached (see
// cacheDir). When it cannot be fetched every test skips, loudly; with
// LOOPHOOK_E2E_REQUIRE=1 they fail instead.
// LOOPHOOK_E2E_LOOPHOOK=/path/to/loophook runs a prebuilt binary instead of
// building ./cmd/loophook.
package e2e

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// claudeSuite is the Claude Code tests' one-time setup: the pinned claude
// executable, fetched on first use, so that a -run that selects no test
// downloads nothing.
var claudeSuite = hostSuite[string]{host: "Claude Code " + claudeVersion, verb: "fetched", fetch: fetchClaude, where: func(c string) string { return c }}

// TestMain removes the built loophook and, when the suite could not run,
// says so once more after the last test.
func TestMain(m *testing.M) {
	if code, child := approveChild(); child {
		os.Exit(code)
	}
	code := m.Run()
	if r := releasesRan(); r != "" {
		fmt.Fprintf(os.Stderr, "e2e: the hosts ran at\n%s\n", r)
	}
	if built.tmp != "" {
		os.RemoveAll(built.tmp)
	}
	for _, s := range []struct{ skip, host string }{
		{claudeSuite.skip, claudeSuite.host},
		{codexSuite.skip, codexHost},
		{geminiSuite.skip, "Gemini CLI " + geminiVersion},
		{copilotSuite.skip, copilotHost},
		{qwenSuite.skip, qwenSuite.host},
		{droidSuite.skip, droidSuite.host},
	} {
		if s.skip == "" {
			continue
		}
		// Again at the very end, where a person reading the log looks.
		banner(os.Stderr, s.skip, s.host)
		// Without -v, `go test` shows nothing of a package that passed but
		// its "ok" line, and a package whose tests all skipped passes: tell
		// the person at the terminal, if there is one, directly.
		if !testing.Verbose() {
			if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
				banner(tty, s.skip, s.host)
				tty.Close()
			}
		}
	}
	os.Exit(code)
}

// setup returns the claude and loophook executables, or skips or fails
// the test when the suite cannot run.
func setup(t *testing.T) (claude, loophook string) {
	t.Helper()
	claude = claudeSuite.get(t)
	return claude, loophookBinary(t)
}

// built is the loophook under test, built once for every host's tests.
var built struct {
	once sync.Once
	bin  string
	tmp  string // holds bin, unless LOOPHOOK_E2E_LOOPHOOK names one
	err  error
}

// loophookBinary returns the loophook under test, building it on first
// use; when it cannot be built the test fails.
func loophookBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() { built.bin, built.err = buildLoophook() })
	if built.err != nil {
		t.Fatalf("e2e setup: %v", built.err)
	}
	return built.bin
}

// buildLoophook builds ./cmd/loophook into a temp dir, from the module
// root so that it works whatever the test's working directory.
func buildLoophook() (string, error) {
	if bin := os.Getenv("LOOPHOOK_E2E_LOOPHOOK"); bin != "" {
		return filepath.Abs(bin)
	}
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("finding the module root: %v", err)
	}
	built.tmp, err = os.MkdirTemp("", "loophook-e2e-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(built.tmp, "loophook")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/loophook/loophook/cmd/loophook")
	cmd.Dir = strings.TrimSpace(string(root))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build cmd/loophook: %v\n%s", err, out)
	}
	return bin, nil
}

// banner makes a skip impossible to miss in a long log: a green run that
// ran nothing must not pass for a real one.
func banner(w io.Writer, reason, host string) {
	line := strings.Repeat("#", 76)
	fmt.Fprintf(w, "\n%s\n#\n#   LOOPHOOK E2E SUITE SKIPPED: IT DID NOT RUN.\n#\n", line)
	for _, l := range strings.Split(reason, "\n") {
		fmt.Fprintf(w, "#   %s\n", l)
	}
	fmt.Fprintf(w, "#\n#   No test exercised the hooks with %s.\n", host)
	if os.Getenv("LOOPHOOK_E2E_REQUIRE") == "1" {
		fmt.Fprintf(w, "#   LOOPHOOK_E2E_REQUIRE=1: every test FAILED for it.\n#\n%s\n\n", line)
	} else {
		fmt.Fprintf(w, "#   Set LOOPHOOK_E2E_REQUIRE=1 to make this a failure.\n#\n%s\n\n", line)
	}
}
