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
	"os"
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
		{piSuite.skip, piSuite.host},
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
