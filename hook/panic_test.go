package hook

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/internal/file"
)

// panicReader panics on the first read: a bug as early as it can be.
type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("boom in read") }

// TestPanicLetsTheAgentStop: a panic anywhere in an evaluation becomes a
// verdict that lets the agent stop, with the cause and a stack on stderr,
// and stdout still holds exactly one JSON object (hook/host checks every
// host's wire).
func TestPanicLetsTheAgentStop(t *testing.T) {
	o := Options{Host: host("ok"), Limits: criteria.DefaultLimits()}
	var stdout, stderr bytes.Buffer
	stop(o, panicReader{}, &stdout, &stderr)
	checkRecovered(t, "stop", stdout.String(), `{"ok":true,"reason":"loophook failed (boom in read); letting the agent stop"}`, stderr.String(), "boom in read")

	stdout.Reset()
	stderr.Reset()
	sessionStart(o, panicReader{}, &stdout, &stderr)
	checkRecovered(t, "session-start", stdout.String(), `{"ok":true,"reason":""}`, stderr.String(), "boom in read")
}

// TestPanicHoldingTheMemoryLock: a panic while the session's memory is
// locked and half written still answers, leaves the last good memory as it
// was, and releases the lock, so the next evaluation neither blocks nor
// loses count.
func TestPanicHoldingTheMemoryLock(t *testing.T) {
	dir := loopDir(t)
	store := hopeStore(dir)
	o := Options{Host: host("ok"), Limits: criteria.DefaultLimits()}
	stop := func() (string, string) {
		var stdout, stderr bytes.Buffer
		stop(o, strings.NewReader(stopInput(dir, "s1", true)), &stdout, &stderr)
		return stdout.String(), stderr.String()
	}
	stop()
	good, err := os.ReadFile(store.File("s1"))
	if err != nil {
		t.Fatal(err)
	}

	defer func(w func(*os.File, []byte) (int, error)) { file.WriteTemp = w }(file.WriteTemp)
	file.WriteTemp = func(f *os.File, data []byte) (int, error) {
		f.Write(data[:len(data)/2])
		panic("disk on fire")
	}
	out, errOut := stop()
	checkRecovered(t, "stop", out, `{"ok":true,"reason":"loophook failed (disk on fire); letting the agent stop"}`, errOut, "disk on fire")
	if now, _ := os.ReadFile(store.File("s1")); !bytes.Equal(now, good) {
		t.Fatalf("memory changed by a write that panicked: %q, was %q", now, good)
	}

	file.WriteTemp = (*os.File).Write
	out, errOut = stop()
	if errOut != "" || !strings.HasPrefix(out, `{"ok":false,"reason":"iteration 1 of 10: 1 of 1 criterion unmet`) {
		t.Fatalf("after the panic: stdout %q, stderr %q", out, errOut)
	}
	if m, _, _ := store.Read("s1"); m.Unchanged != 1 {
		t.Fatalf("after the panic: memory %+v, want count 1", m)
	}
}

func checkRecovered(t *testing.T, what, stdout, want, stderr, cause string) {
	t.Helper()
	if stdout != want+"\n" {
		t.Errorf("%s: stdout %q, want %q", what, stdout, want+"\n")
	}
	if !strings.HasPrefix(stderr, "loophook: internal error: "+cause+"\n") || !strings.Contains(stderr, "goroutine ") {
		t.Errorf("%s: stderr lacks the cause and a stack: %q", what, stderr)
	}
}
