//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// hostSuite is one host's one-time setup, made on first use, under the
// suite's policy: when the host cannot be had, every test of it skips,
// loudly, or fails with LOOPHOOK_E2E_REQUIRE=1.
type hostSuite[T any] struct {
	host  string                           // the host and its version, for messages
	verb  string                           // how it is had: "installed", "fetched"
	fetch func(context.Context) (T, error) // installs it, or finds it in the cache
	where func(T) string                   // where it is, for the log

	once sync.Once
	got  T
	skip string // why its tests cannot run here (set: each skips)
	err  error  // a setup failure (set: each fails)
}

// get returns the host, or skips or fails the test when it cannot be had.
func (s *hostSuite[T]) get(t *testing.T) T {
	t.Helper()
	s.once.Do(func() {
		start := time.Now()
		s.got, s.err = s.fetch(context.Background())
		switch {
		case errors.Is(s.err, errUnreachable):
			s.skip = "REGISTRY UNREACHABLE: " + s.host + " could not be " + s.verb + ", " +
				"so the loophook e2e tests on it did NOT run.\n" + s.err.Error()
		case errors.Is(s.err, errUnsupported):
			s.skip = "UNSUPPORTED PLATFORM: the loophook e2e tests on " + s.host + " did NOT run.\n" + s.err.Error()
		}
		if s.skip != "" {
			s.err = nil
			banner(os.Stderr, s.skip, s.host)
			return
		}
		if s.err == nil {
			fmt.Fprintf(os.Stderr, "e2e: %s ready at %s (%v)\n", s.host, s.where(s.got), time.Since(start).Round(time.Millisecond))
		}
	})
	if s.skip != "" {
		if os.Getenv("LOOPHOOK_E2E_REQUIRE") == "1" {
			t.Fatal(s.skip + "\n(LOOPHOOK_E2E_REQUIRE=1 makes this a failure)")
		}
		t.Skip(s.skip)
	}
	if s.err != nil {
		t.Fatalf("e2e setup: %v", s.err)
	}
	return s.got
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
