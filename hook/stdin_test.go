package hook

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestStdinNeverClosed runs stop processes whose stdin stays open, as a
// host that never closes it would: a whole input is answered at once, and
// no input at all is answered within the deadline, letting the agent stop.
func TestStdinNeverClosed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := loopDir(t)
	for _, tc := range []struct {
		name, write, want string
	}{
		{"a whole object", stopInput(dir, "s1", false), `{"ok":false,`},
		{"nothing", "", `{"ok":true,"reason":"the hook could not read its input (nothing arrived on stdin within 5s)`},
		{"half an object", `{"session_id":"s1",`, `{"ok":true,"reason":"the hook could not read its input (stdin did not finish a JSON object within 5s)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := stopProcess(ctx, "")
			// A pipe the child reads directly: the test keeps its write end
			// open until the child has answered.
			stdin, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdin = stdin
			defer w.Close()
			if _, err := w.Write([]byte(tc.write)); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("loophook stop: %v", err)
			}
			if took := time.Since(start); took > 2*time.Second+inputDeadline {
				t.Errorf("answered after %v", took)
			}
			decodeOneVerdict(t, out)
			if !strings.HasPrefix(string(out), tc.want) {
				t.Errorf("answer %s, want it to start %s", out, tc.want)
			}
		})
	}
}
