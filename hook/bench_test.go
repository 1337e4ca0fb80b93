package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/checks"
	"github.com/loophook/loophook/hook/config"
)

// project writes a git project with a state of n criteria, every other met,
// and returns the hook input for it.
func project(tb testing.TB, n int) []byte {
	dir := tb.TempDir()
	must(tb, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	must(tb, os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	must(tb, os.MkdirAll(filepath.Join(dir, ".loop"), 0o755))
	must(tb, os.WriteFile(filepath.Join(dir, stateFile), stateJSON(n), 0o644))
	in, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": dir, "hook_event_name": "Stop", "stop_hook_active": false})
	return in
}

func stateJSON(n int) []byte {
	criteria := make([]string, n)
	status := map[string]any{}
	for i := range criteria {
		criteria[i] = fmt.Sprintf("criterion %d: the export command handles case %d as the spec says", i, i)
		status[criteria[i]] = map[string]any{"met": i%2 == 0, "verification": "execution output"}
	}
	data, _ := json.Marshal(map[string]any{
		"spec": "add a --json flag", "criteria": criteria, "criteriaStatus": status,
		"iteration": 3, "maxIterations": 10, "circuitBreaker": map[string]any{"stuckCount": 0},
		"steps": []string{"a", "b"}, "remainingSteps": []string{"b"},
	})
	return data
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

func BenchmarkStop(b *testing.B) {
	for _, n := range []int{20, 10_000} {
		in := project(b, n)
		b.Run(fmt.Sprintf("criteria=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			o := Options{Host: host("ok"), Limits: criteria.DefaultLimits()}
			for b.Loop() {
				stop(o, bytes.NewReader(in), io.Discard, io.Discard)
			}
		})
	}
}

// BenchmarkClaimWithCachedChecks: a claim whose checks passed on the tree
// as it is costs a plain claim plus the tree's fingerprint, timed beside
// both, on a git work tree of a few files:
//
//	go test -run '^$' -bench ClaimWithCachedChecks ./hook/
func BenchmarkClaimWithCachedChecks(b *testing.B) {
	claim := func(checks bool) []byte {
		dir := b.TempDir()
		git := exec.Command("git", "init", "-q", dir)
		if out, err := git.CombinedOutput(); err != nil {
			b.Fatalf("git init: %v\n%s", err, out)
		}
		must(b, os.MkdirAll(filepath.Join(dir, ".loop"), 0o755))
		must(b, os.WriteFile(filepath.Join(dir, stateFile), []byte(`{"criteria":["tests pass"],"criteriaStatus":{"tests pass":true},"exit_signal":true,"iteration":3}`), 0o644))
		if checks {
			must(b, os.WriteFile(filepath.Join(dir, config.File), []byte(`{"checks":[{"name":"tests","run":"true"}]}`), 0o644))
			_, err := config.Approve(dir)
			must(b, err)
		}
		in, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": dir, "hook_event_name": "Stop", "stop_hook_active": false})
		return in
	}
	o := Options{Host: host("ok"), Limits: criteria.DefaultLimits()}
	plain, cached := claim(false), claim(true)
	var out bytes.Buffer
	stop(o, bytes.NewReader(cached), &out, io.Discard) // runs the check once, and keeps its result
	if !strings.Contains(out.String(), `"ok":true`) {
		b.Fatalf("the claim did not end the loop: %s", out.String())
	}
	var in struct{ Cwd string }
	json.Unmarshal(cached, &in)
	b.Run("plain claim", func(b *testing.B) {
		for b.Loop() {
			stop(o, bytes.NewReader(plain), io.Discard, io.Discard)
		}
	})
	b.Run("cached checks", func(b *testing.B) {
		for b.Loop() {
			stop(o, bytes.NewReader(cached), io.Discard, io.Discard)
		}
	})
	b.Run("fingerprint", func(b *testing.B) {
		for b.Loop() {
			checks.Fingerprint(in.Cwd)
		}
	})
}
