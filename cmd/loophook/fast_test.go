package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFastPathAnswersAsTheApp holds the hooks' fast path to the app: the same
// arguments and environment give the same answer, or the fast path stands
// aside and lets the app speak.
func TestFastPathAnswersAsTheApp(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, ".loop", "state.json")
	if err := os.MkdirAll(filepath.Dir(state), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state, []byte(`{"criteria":["a"],"criteriaStatus":{"a":true},"exit_signal":true,"iteration":4,"circuitBreaker":{"stuckCount":3}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	input := `{"session_id":"s1","cwd":"` + dir + `","stop_hook_active":false,"last_assistant_message":"done"}`
	cases := []struct {
		args []string
		env  map[string]string
	}{
		{args: []string{"stop"}},
		{args: []string{"stop", "--protocol", "claude"}},
		{args: []string{"stop", "--protocol=claude", "--require-marker"}},
		{args: []string{"stop", "-require-marker=false", "--max-iterations", "4"}},
		{args: []string{"stop", "--stuck-limit", "3"}},
		{args: []string{"stop"}, env: map[string]string{"LOOPHOOK_STUCK_LIMIT": "3"}},
		{args: []string{"stop", "--stuck-limit", "9"}, env: map[string]string{"LOOPHOOK_STUCK_LIMIT": "3"}},
		{args: []string{"stop"}, env: map[string]string{"LOOPHOOK_PROTOCOL": "claude", "LOOPHOOK_REQUIRE_MARKER": "true"}},
		{args: []string{"stop", "--state", state, "--dir", "/"}},
		{args: []string{"session-start", "--protocol", "claude"}},
		{args: []string{"session-start"}, env: map[string]string{"LOOPHOOK_MAX_ITERATIONS": "7"}},
	}
	for _, c := range cases {
		name := strings.Join(c.args, " ")
		for k, v := range c.env {
			t.Setenv(k, v)
			name += " " + k + "=" + v
		}
		args := append([]string{"loophook"}, c.args...)
		var fastOut, appOut, errs bytes.Buffer
		if !runHook(args, strings.NewReader(input), &fastOut, &errs) {
			t.Errorf("%s: the fast path stood aside", name)
		}
		answered := false
		if err := newApp(strings.NewReader(input), &appOut, &errs, &answered).Run(args); err != nil || !answered {
			t.Fatalf("%s: the app did not answer: %v", name, err)
		}
		if fastOut.String() != appOut.String() {
			t.Errorf("%s:\nfast: %s app:  %s", name, fastOut.String(), appOut.String())
		}
		for k := range c.env {
			os.Unsetenv(k)
		}
	}
	for _, args := range [][]string{
		{"stop", "--help"}, {"stop", "-h"}, {"stop", "--no-such-flag"}, {"stop", "--stuck-limit", "x"},
		{"stop", "--stuck-limit", "0"}, {"stop", "--protocol", "xml"}, {"stop", "extra"},
		{"stop", "--generate-bash-completion"}, {"eval"},
	} {
		if runHook(append([]string{"loophook"}, args...), strings.NewReader(input), &bytes.Buffer{}, &bytes.Buffer{}) {
			t.Errorf("%v: the fast path answered what the app should", args)
		}
	}
}
