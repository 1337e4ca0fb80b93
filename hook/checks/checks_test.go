package checks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loophook/loophook/hook/config"
)

// TestRingKeepsTheLastMiB: whatever a check prints, the ring holds its
// last MaxOutput bytes, in order, and counts what it dropped.
func TestRingKeepsTheLastMiB(t *testing.T) {
	r := newRing(MaxOutput)
	var all bytes.Buffer
	for i := range 300000 {
		line := fmt.Sprintf("line %d\n", i)
		r.Write([]byte(line))
		all.WriteString(line)
	}
	big := bytes.Repeat([]byte("x"), 3*MaxOutput)
	r.Write(big)
	all.Write(big)
	r.Write([]byte("end\n"))
	all.WriteString("end\n")
	want := all.Bytes()[all.Len()-MaxOutput:]
	if got := r.Bytes(); !bytes.Equal(got, want) || len(r.buf) != MaxOutput {
		t.Fatalf("kept %d bytes, not the last %d", len(got), MaxOutput)
	}
	if r.dropped() != int64(all.Len()-MaxOutput) {
		t.Errorf("dropped %d, want %d", r.dropped(), all.Len()-MaxOutput)
	}
}

func TestTail(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "line\t%d\n", i)
	}
	got := tail([]byte(b.String()))
	lines := strings.Split(got, "\n")
	if len(lines) != tailLines || lines[0] != "line  30" || lines[19] != "line  49" {
		t.Errorf("tail: %q", got)
	}
	if got := tail(bytes.Repeat([]byte("é"), 2000)); len(got) > tailBytes || !strings.HasPrefix(got, "é") {
		t.Errorf("a long line is cut at a rune: %d bytes, %q…", len(got), got[:4])
	}
}

// TestTimeoutKillsTheGroup: a check past its timeout is killed with every
// process it started, and so is what a check that exits leaves behind.
func TestTimeoutKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		run     string
		timeout time.Duration
		passed  bool
	}{
		{"sleep 60 & echo $! > child; sleep 60", 500 * time.Millisecond, false},
		{"sleep 60 & echo $! > child", time.Minute, true},
	} {
		start := time.Now()
		r := run(config.Check{Name: "c", Run: tc.run, Timeout: tc.timeout}, dir, tc.timeout)
		if r.Passed() != tc.passed || r.TimedOut == tc.passed {
			t.Fatalf("%s: %+v", tc.run, r)
		}
		if took := time.Since(start); took > 30*time.Second {
			t.Fatalf("%s: the run waited %v for the child", tc.run, took)
		}
		pid, err := os.ReadFile(filepath.Join(dir, "child"))
		if err != nil {
			t.Fatal(err)
		}
		if alive(t, strings.TrimSpace(string(pid))) {
			t.Errorf("%s: child %s outlived the check", tc.run, pid)
		}
	}
}

// alive reports whether a process runs, a zombie not counted: the
// orphan's new parent may not have reaped it yet.
func alive(t *testing.T, pid string) bool {
	for range 50 {
		data, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			return false
		}
		fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X") {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// TestStopTimeCutsChecks: the checks of one run stay inside Within,
// those side by side and one that waits for a slot alike; a check the
// stop's time cut short is said so, and not kept for reuse.
func TestStopTimeCutsChecks(t *testing.T) {
	top := t.TempDir()
	cs := []config.Check{
		{Name: "slow", Run: "sleep 5", Timeout: time.Minute},
		{Name: "slower", Run: "sleep 6", Timeout: time.Minute},
		{Name: "next", Run: "true", Timeout: time.Minute, Exclusive: true},
	}
	rs := Runner{Top: top, Within: 300 * time.Millisecond, Reuse: true}.Run(cs)
	if len(rs) != 3 || !rs[0].Cut || !rs[1].Cut || !rs[2].Cut || rs[2].Passed() {
		t.Fatalf("%+v", rs)
	}
	if !strings.Contains(rs[0].Cause(), "time for this stop's checks ran out") {
		t.Errorf("cause: %s", rs[0].Cause())
	}
	if len(Last(top, cs)) != 0 {
		t.Error("a cut result was kept for reuse")
	}
}

// TestCutRunLeavesTheKeptOutput: a run the stop's time cut short, which
// is not kept, does not write over the output file of the result that is:
// why shows a kept result with its own output, not a later cut run's.
func TestCutRunLeavesTheKeptOutput(t *testing.T) {
	top := t.TempDir()
	os.WriteFile(filepath.Join(top, "said"), []byte("first run\n"), 0o644)
	cs := []config.Check{{Name: "c", Run: "cat said; [ -e slow ] && sleep 5; exit 1", Timeout: time.Minute}}
	if rs := (Runner{Top: top, Reuse: true}).Run(cs); rs[0].Exit != 1 {
		t.Fatalf("%+v", rs[0])
	}
	os.WriteFile(filepath.Join(top, "said"), []byte("cut run\n"), 0o644)
	os.WriteFile(filepath.Join(top, "slow"), nil, 0o644)
	if rs := (Runner{Top: top, Within: 300 * time.Millisecond, Reuse: true}).Run(cs); !rs[0].Cut {
		t.Fatalf("not cut: %+v", rs[0])
	}
	last := Last(top, cs)
	if len(last) != 1 || last[0].Tail != "first run" {
		t.Fatalf("kept: %+v", last)
	}
	data, err := os.ReadFile(last[0].Output)
	if err != nil || strings.TrimSpace(string(data)) != "first run" {
		t.Errorf("the kept result's output file holds %q (%v), not its own output", data, err)
	}
}

// TestWithinBoundsTheQueue: checks that wait for the one slot get what
// is left of the stop's time when they start, not each the whole of it:
// the run ends near Within, and those that never had time are cut.
func TestWithinBoundsTheQueue(t *testing.T) {
	slots(t, 1)
	var cs []config.Check
	for i := range 6 {
		cs = append(cs, config.Check{Name: fmt.Sprint("c", i), Run: fmt.Sprintf("sleep 2 # %d", i), Timeout: time.Minute})
	}
	start := time.Now()
	rs := Runner{Top: t.TempDir(), Within: 3 * time.Second}.Run(cs)
	if took := time.Since(start); took > 6*time.Second {
		t.Errorf("the run took %v, within 3s", took)
	}
	if !rs[0].Passed() {
		t.Errorf("the first check had the time it needed: %s", rs[0].Cause())
	}
	for i, r := range rs[1:] {
		if !r.Cut || r.Name != cs[i+1].Name {
			t.Errorf("check %d: %s", i+1, r.Cause())
		}
	}
	// The second ran until the time was out; the others never started,
	// and are not said to have been stopped.
	if c := rs[1].Cause(); !strings.HasPrefix(c, "was stopped after ") {
		t.Errorf("check 1: %s", c)
	}
	if c := rs[5].Cause(); c != "did not start: the hook's time for this stop's checks had run out" {
		t.Errorf("check 5: %s", c)
	}
}

// TestNothingStartsHangsNoRun: checks that cannot start (their directory
// is gone), exclusive or not, on one slot, each end with why, and the run
// ends; so do twenty checks when the stop's time is already spent.
func TestNothingStartsHangsNoRun(t *testing.T) {
	slots(t, 1)
	var cs []config.Check
	for i := range 20 {
		cs = append(cs, config.Check{Name: fmt.Sprint("c", i), Run: fmt.Sprintf("sleep 5 # %d", i), Timeout: time.Minute, Exclusive: i%3 == 0})
	}
	done := make(chan []Result)
	go func() { done <- (Runner{Top: filepath.Join(t.TempDir(), "gone")}).Run(cs) }()
	go func() { done <- (Runner{Top: t.TempDir(), Within: time.Nanosecond}).Run(cs) }()
	for range 2 {
		select {
		case rs := <-done:
			for i, r := range rs {
				if r.Passed() || r.Name != cs[i].Name || (r.Err == "" && !r.Cut) {
					t.Errorf("check %d: %+v", i, r)
				}
			}
		case <-time.After(30 * time.Second):
			t.Fatal("a run that could start nothing hangs")
		}
	}
}

// TestExclusiveInARow: exclusive checks one after another, first and
// last, each run alone, and the others between them side by side.
func TestExclusiveInARow(t *testing.T) {
	slots(t, 4)
	log := runLog(t, []config.Check{
		logged("x", true), logged("y", true), logged("a", false), logged("b", false), logged("z", true),
	})
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	if len(log) != 10 ||
		!slices.Equal(log[:4], []string{"start x", "end x", "start y", "end y"}) ||
		!slices.Equal(sorted(log[4:8]), []string{"end a", "end b", "start a", "start b"}) ||
		!slices.Equal(log[8:], []string{"start z", "end z"}) {
		t.Errorf("log: %q", log)
	}
}

// TestSideBySideGroupsApart: of two checks side by side, the one past its
// timeout is killed with its group, and the other runs on to pass; a child
// one leaves outside its group holds its own output open, not the other's.
func TestSideBySideGroupsApart(t *testing.T) {
	slots(t, 2)
	escape := "sleep 4 &"
	if _, err := exec.LookPath("setsid"); err == nil {
		escape = "setsid sleep 4 &"
	}
	cs := []config.Check{
		{Name: "slow", Run: "sleep 30", Timeout: 300 * time.Millisecond},
		{Name: "left", Run: escape + " echo left", Timeout: time.Minute},
		{Name: "next", Run: "sleep 1; echo next", Timeout: time.Minute},
	}
	rs := Runner{Top: t.TempDir()}.Run(cs)
	if !rs[0].TimedOut || rs[0].Cut {
		t.Errorf("slow: %s", rs[0].Cause())
	}
	if !rs[1].Passed() || rs[1].Tail != "left" || rs[1].Took > 3*time.Second {
		t.Errorf("left: %s after %v, %q", rs[1].Cause(), rs[1].Took, rs[1].Tail)
	}
	if !rs[2].Passed() || rs[2].Tail != "next" || rs[2].Took > 3*time.Second {
		t.Errorf("next: %s after %v, %q", rs[2].Cause(), rs[2].Took, rs[2].Tail)
	}
}

// waitFor is a command that waits, ten seconds at most, until the file
// exists: a check that meets another only when both run at once.
func waitFor(name string) string {
	return "i=0; until [ -e " + name + " ]; do i=$((i+1)); [ $i -lt 200 ] || exit 7; sleep 0.05; done"
}

// slots sets GOMAXPROCS, how many checks run at once, for one test.
func slots(t *testing.T, n int) {
	was := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(was) })
}

// TestChecksRunSideBySide: two checks that each wait for the other to
// start both pass, which they can only side by side; each keeps its own
// output, and the results come in the file's order, the last check's
// first though it ended first.
func TestChecksRunSideBySide(t *testing.T) {
	slots(t, 2)
	top := t.TempDir()
	cs := []config.Check{
		{Name: "a", Run: "echo a says; touch a; " + waitFor("b") + "; " + waitFor("b-done") + "; echo a ends", Timeout: time.Minute},
		{Name: "b", Run: "echo b says; touch b; " + waitFor("a") + "; touch b-done; exit 3", Timeout: time.Minute},
	}
	rs := Runner{Top: top}.Run(cs)
	if len(rs) != 2 || rs[0].Name != "a" || rs[1].Name != "b" {
		t.Fatalf("results out of the file's order: %+v", rs)
	}
	if !rs[0].Passed() || rs[1].Exit != 3 {
		t.Fatalf("the checks did not meet: %+v", rs)
	}
	if rs[0].Tail != "a says\na ends" || rs[1].Tail != "b says" {
		t.Errorf("outputs mixed: %q, %q", rs[0].Tail, rs[1].Tail)
	}
	if len(Last(top, cs)) != 2 {
		t.Error("both results are not kept")
	}
}

// TestSameCommandRunsOnce: two checks with one command, which share its
// place in the cache, run it once and take its result alike; run side by
// side, the run that failed could be kept under the one that passed, and
// the next claim on the same tree reused the pass for both.
func TestSameCommandRunsOnce(t *testing.T) {
	slots(t, 2)
	top := t.TempDir()
	gitRepo(t, top, 1, 0, 0)
	// The first run fails; any after it passes, later.
	ran := filepath.ToSlash(filepath.Join(t.TempDir(), "ran"))
	run := "mkdir " + ran + " 2>/dev/null && exit 1; sleep 0.3"
	cs := []config.Check{
		{Name: "unit", Run: run, Criterion: "tests pass", Timeout: time.Minute},
		{Name: "again", Run: run, Criterion: "still pass", Timeout: time.Minute},
	}
	for round := range 2 {
		rs := Runner{Top: top, Reuse: true}.Run(cs)
		if len(rs) != 2 || rs[0].Name != "unit" || rs[1].Name != "again" || rs[1].Criterion != "still pass" {
			t.Fatalf("round %d: %+v", round, rs)
		}
		if rs[0].Passed() || rs[1].Passed() {
			t.Fatalf("round %d: a failed run of the command on this tree is not the result of both: %s, %s", round, rs[0].Cause(), rs[1].Cause())
		}
	}
}

// logged is a check that writes its start and end to the log.
func logged(name string, exclusive bool) config.Check {
	return config.Check{
		Name:      name,
		Run:       "echo start " + name + " >> log; sleep 0.2; echo end " + name + " >> log",
		Timeout:   time.Minute,
		Exclusive: exclusive,
	}
}

// runLog runs the checks at top and returns the log they wrote.
func runLog(t *testing.T, cs []config.Check) []string {
	t.Helper()
	top := t.TempDir()
	for _, r := range (Runner{Top: top}).Run(cs) {
		if !r.Passed() {
			t.Fatalf("%s: %s", r.Name, r.Cause())
		}
	}
	data, err := os.ReadFile(filepath.Join(top, "log"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(strings.ReplaceAll(string(data), "\r", "")), "\n")
}

// TestExclusiveRunsAlone: an exclusive check starts when every check
// before it has ended, and the checks after it start once it has ended.
func TestExclusiveRunsAlone(t *testing.T) {
	slots(t, 4)
	log := runLog(t, []config.Check{
		logged("x", true), logged("a", false), logged("b", false), logged("y", true), logged("c", false), logged("z", true),
	})
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	if len(log) != 12 ||
		!slices.Equal(log[:2], []string{"start x", "end x"}) ||
		!slices.Equal(sorted(log[2:6]), []string{"end a", "end b", "start a", "start b"}) ||
		!slices.Equal(log[6:], []string{"start y", "end y", "start c", "end c", "start z", "end z"}) {
		t.Errorf("log: %q", log)
	}
}

// TestOneSlotRunsInOrder: with one core the checks run one at a time, in
// the file's order.
func TestOneSlotRunsInOrder(t *testing.T) {
	slots(t, 1)
	log := runLog(t, []config.Check{logged("a", false), logged("b", false), logged("c", false)})
	if want := []string{"start a", "end a", "start b", "end b", "start c", "end c"}; !slices.Equal(log, want) {
		t.Errorf("log: %q, want %q", log, want)
	}
}

// gitRepo makes a work tree of files files committed, then changes
// changed of them and adds untracked new ones: the bench's tree.
func gitRepo(tb testing.TB, dir string, files, changed, untracked int) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil && runtime.GOOS == "windows" {
		tb.Skip("no git on PATH: Wine has no Git for Windows")
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=b", "-c", "user.email=b@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	for i := range files {
		path := filepath.Join(dir, fmt.Sprintf("pkg%03d", i/100), fmt.Sprintf("file%05d.go", i))
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(fmt.Sprintf("package p\n\n// file %d\nvar x%d = %d\n", i, i, i)), 0o644)
	}
	git("add", "-A")
	git("commit", "-qm", "files")
	for i := range changed {
		path := filepath.Join(dir, fmt.Sprintf("pkg%03d", i*files/changed/100), fmt.Sprintf("file%05d.go", i*files/changed))
		os.WriteFile(path, []byte(fmt.Sprintf("package p\n\n// changed %d\n", i)), 0o644)
	}
	for i := range untracked {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("new%02d.go", i)), []byte("package p\n"), 0o644)
	}
}

func TestFingerprintSeesChanges(t *testing.T) {
	dir := t.TempDir()
	if Fingerprint(dir) != "" {
		t.Fatal("a fingerprint outside git")
	}
	gitRepo(t, dir, 20, 2, 1)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.log\n"), 0o644)
	// An ignored file written over; a new one changes its directory, which
	// the fingerprint holds (a directory swapped and back is a change).
	os.WriteFile(filepath.Join(dir, "build.log"), []byte("ignored"), 0o644)
	first := Fingerprint(dir)
	if first == "" || Fingerprint(dir) != first {
		t.Fatal("the fingerprint of an unchanged tree changes")
	}
	os.WriteFile(filepath.Join(dir, "build.log"), []byte("ignored again"), 0o644)
	if Fingerprint(dir) != first {
		t.Error("an ignored file changed the fingerprint")
	}
	for _, change := range []func(){
		func() { os.WriteFile(filepath.Join(dir, "new00.go"), []byte("package q\n"), 0o644) },
		func() { os.WriteFile(filepath.Join(dir, "pkg000", "file00000.go"), []byte("edited\n"), 0o644) },
		func() { os.Remove(filepath.Join(dir, "pkg000", "file00001.go")) },
		func() { os.WriteFile(filepath.Join(dir, "another.go"), nil, 0o644) },
	} {
		before := Fingerprint(dir)
		change()
		if Fingerprint(dir) == before {
			t.Error("a change to the tree left the fingerprint as it was")
		}
	}
}

var (
	benchOnce sync.Once
	benchDir  string
)

// benchTree is the bench's work tree: 10,000 files committed, 100 of them
// changed and 10 untracked, made once for the benchmarks.
func benchTree(b *testing.B) string {
	benchOnce.Do(func() {
		// In the test's own home, which testhome removes after the run.
		dir, err := os.MkdirTemp(os.Getenv("HOME"), "fingerprint-")
		if err != nil {
			b.Fatal(err)
		}
		gitRepo(b, dir, 10000, 100, 10)
		// Past the racy window: a tree left alone is judged by stat alone.
		time.Sleep(racy)
		benchDir = dir
	})
	return benchDir
}

// BenchmarkFingerprint times the tree's fingerprint and git status
// --porcelain=v2 --untracked-files=all on the same tree, one after the
// other in each round so that the machine's drift hits both alike, and
// reports each one's median wall time and CPU time (its own and its
// children's), and their ratio: the goal is at most 2x.
//
//	go test -run '^$' -bench Fingerprint -benchtime 40x ./hook/checks/
func BenchmarkFingerprint(b *testing.B) {
	dir := benchTree(b)
	status := func() {
		cmd := exec.Command("git", "status", "--porcelain=v2", "--untracked-files=all")
		cmd.Dir = dir
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	fingerprint := func() {
		if Fingerprint(dir) == "" {
			b.Fatal("no fingerprint")
		}
	}
	var wall, cpu [2][]time.Duration
	for b.Loop() {
		for k, f := range []func(){status, fingerprint} {
			c0, t0 := cpuTime(), time.Now()
			f()
			wall[k] = append(wall[k], time.Since(t0))
			cpu[k] = append(cpu[k], cpuTime()-c0)
		}
	}
	med := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	ws, wf, cs, cf := med(wall[0]), med(wall[1]), med(cpu[0]), med(cpu[1])
	b.ReportMetric(ws, "status-ms")
	b.ReportMetric(wf, "fingerprint-ms")
	b.ReportMetric(wf/ws, "wall-ratio")
	b.ReportMetric(cs, "status-cpu-ms")
	b.ReportMetric(cf, "fingerprint-cpu-ms")
	b.ReportMetric(cf/cs, "cpu-ratio")
}

// BenchmarkFingerprintSparse is the fingerprint of a small tree with and
// without an untracked 8 TiB sparse file: one lstat more, not its bytes.
//
//	go test -run '^$' -bench FingerprintSparse ./hook/checks/
func BenchmarkFingerprintSparse(b *testing.B) {
	dir := b.TempDir()
	gitRepo(b, dir, 20, 0, 0)
	time.Sleep(racy)
	sparse := filepath.Join(dir, "data.bin")
	for _, with := range []bool{false, true} {
		if with {
			f, err := os.Create(sparse)
			if err != nil {
				b.Fatal(err)
			}
			if err := f.Truncate(8 << 40); err != nil {
				b.Skip("no sparse 8 TiB file here:", err)
			}
			f.Close()
			time.Sleep(racy)
		}
		b.Run(fmt.Sprintf("sparse=%v", with), func(b *testing.B) {
			c0 := cpuTime()
			for b.Loop() {
				if Fingerprint(dir) == "" {
					b.Fatal("no fingerprint")
				}
			}
			b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}
