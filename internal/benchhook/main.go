// Command benchhook times `loophook stop` against the floor, a Go program
// that only decodes its stdin JSON and prints a fixed verdict (internal/floor).
//
// A Stop hook runs at the end of every turn, so loophook must cost little
// more than any Go process would: the goal is at most 2× the floor,
// whatever the size of the state or of the transcript. benchhook builds
// loophook and the floor, copies them (settled says why), writes the cases
// into a temporary directory, and runs the two whole processes alternately
// (loophook, floor, loophook, floor, ...) with the same stdin, so that
// machine noise hits both alike. It reports the median wall time of each,
// their ratio, and each one's peak RSS (ru_maxrss; see runner.go for why a
// runner process starts the runs), checks every answer loophook gives is
// one JSON verdict with the expected "ok", and says which of the goals
// hold: typical, each protocol, each loop system and the deep search ≤ 2×
// the floor, large ≤ 25× the floor, the 1 GB transcript ≤ 1.2× the 1 KB one.
//
// Run it from the module's root:
//
//	go run ./internal/benchhook                  # every case, 200 runs each
//	go run ./internal/benchhook -markdown        # the table as Markdown
//	go run ./internal/benchhook -cases typical,large -n 500
//	go run ./internal/benchhook -bin ./loophook  # a prebuilt loophook
//	go run ./internal/benchhook -keep /tmp/bh    # keep (and reuse) the 1 GB transcript
//	go run ./internal/benchhook -v               # p90, min, CPU time and page faults too
//	go run ./internal/benchhook -bin new -against old  # a change: new loophook against old
//
// Cases: "no state" (a git work tree without .loop), "typical" (20
// criteria, half met), "large" (10,000 criteria, several MB of state),
// "marker 1KB" and "marker 1GB" (--require-marker, everything met, the
// input without last_assistant_message, so that the marker is looked for at
// the end of a 1 KB or a 1 GB transcript), "budget 1GB" (the first stop of
// a loop with an approved token budget, which reads the whole 1 GB
// transcript once, against cat of it in the floor's place, the hook's
// memory removed before each run), "codex", "gemini", "copilot",
// "claude", "qwen" and "droid" (typical, in each host's input and wire), "on-loop",
// "loop-controller" and "orchestrator" (each loop system's example state),
// and "deep nothing" (cwd 30 levels deep in a large work tree, no state).
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"
)

const modulePath = "github.com/loophook/loophook"

type options struct {
	n            int
	warmup       int
	cases        string
	bin          string
	floor        string
	against      string
	markdown     bool
	keep         string
	big          string
	maxTime      time.Duration
	verbose      bool
	checkVerdict bool
	tags         string
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == runnerArg {
		os.Exit(runRunner())
	}
	os.Exit(run())
}

// runner is the runner process under way, if any, for the signal handler
// to stop before it removes the files.
var (
	runner      atomic.Pointer[os.Process]
	interrupted atomic.Bool
)

// errReported is an error that has already been explained on stderr.
var errReported = errors.New("reported")

func run() int {
	var o options
	flag.IntVar(&o.n, "n", 200, "measured runs per case of each program")
	flag.IntVar(&o.warmup, "warmup", 5, "warm-up runs per case of each program, not counted")
	flag.StringVar(&o.cases, "cases", "", "comma-separated cases to run (default all): no-state, typical, large, marker-1KB, marker-1GB, budget-1GB, codex, gemini, copilot, claude, qwen, droid, on-loop, loop-controller, orchestrator, deep-nothing")
	flag.StringVar(&o.bin, "bin", "", "use this prebuilt loophook instead of building ./cmd/loophook")
	flag.StringVar(&o.floor, "floor", "", "use this prebuilt floor instead of building ./internal/floor")
	flag.StringVar(&o.against, "against", "", "time this other loophook, given the same arguments, in the floor's place: the ratio is then loophook's against it (a change, before and after)")
	flag.BoolVar(&o.markdown, "markdown", false, "print the result as a Markdown table")
	flag.StringVar(&o.keep, "keep", "", "write the cases under `DIR` and keep them; the big transcript is reused when already there")
	flag.StringVar(&o.big, "big", "1GB", "size of the big transcript (KB, MB, GB are powers of 1024)")
	flag.DurationVar(&o.maxTime, "max-time", 20*time.Second, "stop a case's measured runs after this long (at least 10 pairs are run)")
	flag.BoolVar(&o.verbose, "v", false, "more columns (min, p90, CPU time, page faults) and loophook's verdict for each case")
	flag.BoolVar(&o.checkVerdict, "check-verdict", true, "fail when loophook's ok differs from the case's expected verdict")
	flag.StringVar(&o.tags, "tags", "urfave_cli_no_docs", "build tags for go build, as the Makefile builds loophook")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./internal/benchhook [flags]\n\nTimes `loophook stop` against the floor (internal/floor), run alternately with the same stdin.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "benchhook: unexpected argument %q\n", flag.Arg(0))
		flag.Usage()
		return 2
	}
	if o.n < 1 || o.warmup < 0 {
		fmt.Fprintln(os.Stderr, "benchhook: -n must be at least 1 and -warmup at least 0")
		return 2
	}
	bigSize, err := parseSize(o.big)
	if err != nil || bigSize < 1 {
		fmt.Fprintf(os.Stderr, "benchhook: -big %q: want a size such as 1GB or 100MB\n", o.big)
		return 2
	}
	bigName := "marker " + strings.ReplaceAll(strings.ToUpper(strings.TrimSpace(o.big)), "IB", "B")
	if bigSize <= 64<<10 {
		fmt.Fprintf(os.Stderr, "benchhook: -big %q: make the big transcript bigger than 64KB\n", o.big)
		return 2
	}
	selected, err := selectCases(o.cases, bigName)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchhook: %v\n", err)
		return 2
	}

	tmp, err := os.MkdirTemp("", "benchhook-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchhook: %v\n", err)
		return 1
	}
	if t, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = t
	}
	work := tmp
	if o.keep != "" {
		if err := os.MkdirAll(o.keep, 0o755); err != nil {
			fmt.Fprintf(os.Stderr, "benchhook: -keep: %v\n", err)
			return 1
		}
		if work, err = filepath.Abs(o.keep); err == nil {
			if w, err := filepath.EvalSymlinks(work); err == nil {
				work = w
			}
		}
	}
	var cleanOnce sync.Once
	cleanup := func() { cleanOnce.Do(func() { os.RemoveAll(tmp) }) }
	defer cleanup()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		interrupted.Store(true)
		fmt.Fprintf(os.Stderr, "\nbenchhook: %v, cleaning up\n", s)
		if p := runner.Load(); p != nil {
			p.Kill()
			p.Wait()
		}
		cleanup()
		os.Exit(130)
	}()

	if err := bench(o, tmp, work, selected, bigSize, bigName); err != nil {
		if err != errReported {
			fmt.Fprintf(os.Stderr, "benchhook: %v\n", err)
		}
		return 1
	}
	return 0
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchhook: "+format+"\n", args...)
}

func selectCases(list, bigName string) (map[string]bool, error) {
	all := caseNames(bigName)
	sel := map[string]bool{}
	if strings.TrimSpace(list) == "" {
		for _, n := range all {
			sel[normName(n)] = true
		}
		return sel, nil
	}
	for _, want := range strings.Split(list, ",") {
		w := normName(want)
		if w == "" {
			continue
		}
		found := false
		for _, n := range all {
			if normName(n) == w {
				sel[w], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("-cases: no case %q; the cases are %q", strings.TrimSpace(want), all)
		}
	}
	return sel, nil
}

func parseSize(s string) (int64, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "IB"), "B")
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult = 1 << 10
	case strings.HasSuffix(s, "M"):
		mult = 1 << 20
	case strings.HasSuffix(s, "G"):
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, err
	}
	return int64(f * float64(mult)), nil
}

func bench(o options, tmp, work string, selected map[string]bool, bigSize int64, bigName string) error {
	loophook, floor, err := binaries(o, tmp)
	if err != nil {
		return err
	}
	if loophook, err = settled(loophook, tmp, "loophook"); err != nil {
		return err
	}
	if floor, err = settled(floor, tmp, "floor"); err != nil {
		return err
	}

	start := time.Now()
	cases, err := buildCases(work, selected, bigSize, bigName, o.keep != "", logf)
	if err != nil {
		return fmt.Errorf("writing the cases: %w", err)
	}
	if o.keep == "" {
		// Drop the big transcript as soon as we are done, not only when the
		// temporary directory goes.
		defer os.RemoveAll(filepath.Join(work, "transcripts"))
	}
	logf("cases written under %s in %v", work, time.Since(start).Round(time.Millisecond))

	var results []result
	for _, c := range cases {
		r, err := measure(o, c, loophook, floor, tmp)
		if err != nil {
			return err
		}
		results = append(results, r)
	}

	built := o.bin + " (-bin)"
	if o.bin == "" {
		built = fmt.Sprintf("./cmd/loophook built with -tags %q", o.tags)
	}
	printReport(os.Stdout, o, machine(loophook), built, results, bigName)
	return nil
}

// settled returns a copy of the program at path, under dir/run, written a
// page at a time, and both programs are timed from such copies.
//
// How fast a program starts depends on how the page cache holds its file:
// in large folios, an exec's page faults cost less than in single pages,
// and a freshly linked loophook ran 10–20% faster from one copy than from
// another. Which one a file gets is not the program's doing: one large
// write, or a read from disk, gets large folios as far as free memory
// allows, so two copies of one binary, made a minute apart, timed
// 1.12× and 1.36× the same floor. Written a page at a time, a file is held
// in single pages, as the linker leaves its output: the one state that is
// the same for both programs at every run.
func settled(path, dir, name string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	run := filepath.Join(dir, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		return "", err
	}
	copied := filepath.Join(run, name+filepath.Ext(path))
	if err := writePages(copied, data); err != nil {
		return "", fmt.Errorf("copying %s to time it: %w", path, err)
	}
	return copied, nil
}

// writePages writes data to a new executable file at path, one page a
// write.
func writePages(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	const page = 4096
	for len(data) > 0 {
		n := min(len(data), page)
		if _, err := f.Write(data[:n]); err != nil {
			f.Close()
			return err
		}
		data = data[n:]
	}
	return f.Close()
}

// binaries returns the loophook and floor to time, building those not given.
func binaries(o options, tmp string) (loophook, floor string, err error) {
	loophook, floor = o.bin, cmp.Or(o.against, o.floor)
	var pkgs []string
	if loophook == "" {
		pkgs = append(pkgs, "./cmd/loophook")
	}
	if floor == "" {
		pkgs = append(pkgs, "./internal/floor")
	}
	for _, p := range []*string{&loophook, &floor} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return "", "", err
		}
		if fi, err := os.Stat(abs); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", "", fmt.Errorf("%s is not an executable file", *p)
		}
		*p = abs
	}
	if len(pkgs) == 0 {
		return loophook, floor, nil
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", "", fmt.Errorf("go is not on PATH: benchhook builds %s with it (or give prebuilt ones with -bin and -floor)", strings.Join(pkgs, " and "))
	}
	root, err := moduleRoot()
	if err != nil {
		return "", "", err
	}
	binDir := filepath.Join(tmp, "bin") + string(filepath.Separator)
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return "", "", err
	}
	start := time.Now()
	args := []string{"build", "-o", binDir}
	if o.tags != "" {
		args = append(args, "-tags", o.tags)
	}
	cmd := exec.Command(goBin, append(args, pkgs...)...)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", "", fmt.Errorf("go build %s failed (%v):\n%s\n(to time a prebuilt loophook, give -bin PATH)", strings.Join(pkgs, " "), err, strings.TrimSpace(out.String()))
	}
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	if loophook == "" {
		loophook = filepath.Join(binDir, "loophook"+exe)
	}
	if floor == "" {
		floor = filepath.Join(binDir, "floor"+exe)
	}
	logf("built %s (-tags %q) in %v", strings.Join(pkgs, " "), o.tags, time.Since(start).Round(time.Millisecond))
	return loophook, floor, nil
}

// moduleRoot finds the loophook module's root at or above the working
// directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == modulePath {
					return dir, nil
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the %s module: run benchhook from its checkout (go run ./internal/benchhook), or give -bin and -floor", modulePath)
		}
		dir = parent
	}
}

type result struct {
	c benchCase
	jobResult
	ok      bool   // loophook's verdict
	reason  string // loophook's reason
	outSize int    // size of loophook's answer
}

// childEnv is the environment of both programs: ours, with
// CLAUDE_PROJECT_DIR set to the case's directory as Claude Code sets it.
func childEnv(dir string) []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=")
	})
	return append(env, "CLAUDE_PROJECT_DIR="+dir)
}

// excerpt shows at most n bytes of s, for a failure report.
func excerpt(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = cut(s, n) + fmt.Sprintf("... (%d bytes)", len(s))
	}
	if s == "" {
		return "(empty)"
	}
	return s
}

// cut shortens s to at most n bytes without splitting a UTF-8 sequence.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// measure times case c in a runner of its own (see runner.go).
func measure(o options, c benchCase, loophook, floor, tmp string) (result, error) {
	r := result{c: c}
	self, err := os.Executable()
	if err != nil {
		return r, fmt.Errorf("finding benchhook's own executable to start the runner: %w", err)
	}
	outDir, err := os.MkdirTemp(tmp, "out-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(outDir)
	var floorArgs []string
	if o.against != "" {
		floorArgs = c.args
	}
	if len(c.floor) > 0 {
		floor, floorArgs = c.floor[0], c.floor[1:]
	}
	j := job{
		Loophook: loophook, Floor: floor, Args: c.args, FloorArgs: floorArgs,
		Dir: c.dir, Env: append(childEnv(c.dir), c.env...), Stdin: c.stdin,
		N: o.n, Warmup: o.warmup, MaxTime: o.maxTime, OutDir: outDir,
		Fresh: c.fresh, FloorRaw: len(c.floor) > 0,
	}
	if o.checkVerdict {
		j.WantOK = &c.wantOK
	}
	in, err := json.Marshal(j)
	if err != nil {
		return r, err
	}
	logf("%s: %s", c.name, c.about)
	start := time.Now()
	cmd := exec.Command(self, runnerArg)
	cmd.Stdin = bytes.NewReader(in)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Start(); err != nil {
		return r, fmt.Errorf("case %q: starting the runner: %v", c.name, err)
	}
	runner.Store(cmd.Process)
	err = cmd.Wait()
	runner.Store(nil)
	if err != nil {
		if interrupted.Load() {
			select {} // the signal handler is cleaning up and will exit
		}
		return r, fmt.Errorf("case %q: the runner failed: %v", c.name, err)
	}
	if err := json.Unmarshal(out.Bytes(), &r.jobResult); err != nil {
		return r, fmt.Errorf("case %q: reading the runner's result: %v", c.name, err)
	}
	if f := r.Fail; f != nil {
		fmt.Fprintf(os.Stderr, "benchhook: FAIL: case %q, %s run %d: %s\n  args:   %q\n  stdin:  %s\n  stdout: %s\n  stderr: %s\n",
			c.name, f.Prog, f.Run, f.What, c.args, excerpt(string(c.stdin), 300), excerpt(f.Stdout, 2000), excerpt(f.Stderr, 2000))
		fmt.Fprintln(os.Stderr, "benchhook: timing a program that does not answer with one JSON verdict means nothing; fix it first")
		return r, errReported
	}
	r.outSize = len(r.LastOutput)
	var v struct {
		OK     bool   `json:"ok"`
		Reason string `json:"reason"`
	}
	json.Unmarshal([]byte(r.LastOutput), &v) // checked by the runner
	r.ok, r.reason = v.OK, v.Reason
	r.LastOutput = ""
	if r.Stopped {
		logf("%s: stopped after %d of %d runs (-max-time %v)", c.name, len(r.Loop), o.n, o.maxTime)
	}
	lm, fm := median(r.Loop, wallOf), median(r.Floor, wallOf)
	logf("%s: %d runs in %v: loophook %s, floor %s, %.2f×; loophook says ok=%v (%d bytes) %s",
		c.name, len(r.Loop), time.Since(start).Round(time.Millisecond), ms(lm), ms(fm), ratio(lm, fm), r.ok, r.outSize, strconv.Quote(excerptString(r.reason, 120)))
	return r, nil
}

func excerptString(s string, n int) string {
	if len(s) > n {
		return cut(s, n) + "..."
	}
	return s
}

func wallOf(s sample) time.Duration { return s.Wall }
func cpuOf(s sample) time.Duration  { return s.CPU }

// faultsOf is a count, taken for a duration so that the quantiles serve it.
func faultsOf(s sample) time.Duration { return time.Duration(s.Faults) }

func quantile(xs []sample, of func(sample) time.Duration, q float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	d := make([]time.Duration, len(xs))
	for i, x := range xs {
		d[i] = of(x)
	}
	slices.Sort(d)
	if q == 0.5 && len(d)%2 == 0 {
		return (d[len(d)/2-1] + d[len(d)/2]) / 2
	}
	return d[int(q*float64(len(d)-1)+0.5)]
}

func median(xs []sample, of func(sample) time.Duration) time.Duration {
	return quantile(xs, of, 0.5)
}

func peakRSS(xs []sample) int64 {
	var m int64
	for _, x := range xs {
		m = max(m, x.RSS)
	}
	return m
}

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/1e6) }

func mib(n int64) string {
	if n == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// rssCell shows a peak RSS reading, as an upper bound when it may be the
// spawner's own peak rather than the child's (see runner.go).
func rssCell(n, spawner int64) string {
	if n > 0 && spawner > 0 && n <= spawner+256<<10 {
		return "≤ " + mib(max(n, spawner))
	}
	return mib(n)
}

// machine describes where the numbers come from.
func machine(loophook string) string {
	s := fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if m := cpuModel(); m != "" {
		s += " (" + m + ")"
	}
	s += ", " + runtime.Version()
	if bi, err := buildinfo.ReadFile(loophook); err == nil && bi.GoVersion != runtime.Version() {
		s += " (loophook built with " + bi.GoVersion + ")"
	}
	return s
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return ""
}

func printReport(w io.Writer, o options, mach, built string, results []result, bigName string) {
	header := []string{"case", "loophook median", "floor median", "ratio", "loophook peak RSS", "floor peak RSS"}
	if !o.markdown {
		header = slices.Insert(header, 1, "runs")
	}
	if o.verbose {
		header = append(header, "loophook p90", "floor p90", "loophook min", "floor min", "loophook CPU", "floor CPU", "loophook faults", "floor faults")
	}
	var rows [][]string
	for _, r := range results {
		lm, fm := median(r.Loop, wallOf), median(r.Floor, wallOf)
		lr, fr := rssCell(peakRSS(r.Loop), r.SpawnerPeak), rssCell(peakRSS(r.Floor), r.SpawnerPeak)
		if r.ExactLoop > 0 && r.ExactFloor > 0 {
			lr, fr = mib(r.ExactLoop), mib(r.ExactFloor)
		}
		row := []string{r.c.name, ms(lm), ms(fm), fmt.Sprintf("%.2f×", ratio(lm, fm)), lr, fr}
		if !o.markdown {
			row = slices.Insert(row, 1, strconv.Itoa(len(r.Loop)))
		}
		if o.verbose {
			row = append(row,
				ms(quantile(r.Loop, wallOf, 0.9)), ms(quantile(r.Floor, wallOf, 0.9)),
				ms(quantile(r.Loop, wallOf, 0)), ms(quantile(r.Floor, wallOf, 0)),
				ms(median(r.Loop, cpuOf)), ms(median(r.Floor, cpuOf)),
				fmt.Sprint(int64(median(r.Loop, faultsOf))), fmt.Sprint(int64(median(r.Floor, faultsOf))))
		}
		rows = append(rows, row)
	}

	runs := fmt.Sprintf("%d runs", o.n)
	for _, r := range results {
		if len(r.Loop) < o.n {
			runs = fmt.Sprintf("up to %d runs (fewer where -max-time cut a case short)", o.n)
		}
	}
	rss := "peak RSS is VmHWM at exit, from 3 more runs of each traced with ptrace (exact, unlike ru_maxrss, which counts the parent's peak too)"
	for _, r := range results {
		if r.ExactErr != "" || r.ExactLoop == 0 {
			rss = "peak RSS is the largest ru_maxrss (≤: at or under the runner's own peak, so an upper bound)"
			if r.ExactErr != "" {
				rss += "; exact peaks unavailable: " + r.ExactErr
			}
		}
	}
	about := []string{
		"machine: " + mach,
		"loophook: " + built,
	}
	if o.against != "" {
		about = append(about, "floor: "+o.against+" (-against), run with loophook's arguments: the ratio is loophook's against it")
	}
	about = append(about,
		fmt.Sprintf("method: %s of each program per case, alternating, after %d warm-up runs; median wall time of the whole process; %s", runs, o.warmup, rss))
	if o.markdown {
		for _, line := range about {
			fmt.Fprintf(w, "- %s\n", line)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "| %s |\n", strings.Join(header, " | "))
		seps := make([]string, len(header))
		for i := range seps {
			seps[i] = "---:"
		}
		seps[0] = "---"
		fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
		for _, row := range rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
		fmt.Fprintln(w)
	} else {
		for _, line := range about {
			fmt.Fprintln(w, line)
		}
		fmt.Fprintln(w)
		widths := make([]int, len(header))
		for _, row := range append([][]string{header}, rows...) {
			for i, cell := range row {
				widths[i] = max(widths[i], len([]rune(cell)))
			}
		}
		for _, row := range append([][]string{header}, rows...) {
			var b strings.Builder
			for i, cell := range row {
				pad := strings.Repeat(" ", widths[i]-len([]rune(cell)))
				if i == 0 {
					b.WriteString(cell + pad)
				} else {
					b.WriteString("  " + pad + cell)
				}
			}
			fmt.Fprintln(w, b.String())
		}
		fmt.Fprintln(w)
	}

	if o.against != "" {
		return // the goals are against the floor
	}
	goals := goalLines(results, bigName)
	if len(goals) > 0 {
		if o.markdown {
			fmt.Fprintln(w, "Goals:")
			fmt.Fprintln(w)
			for _, g := range goals {
				fmt.Fprintf(w, "- %s\n", g)
			}
		} else {
			fmt.Fprintln(w, "goals:")
			for _, g := range goals {
				fmt.Fprintf(w, "  %s\n", g)
			}
		}
	}
}

// goalLines checks the goals whose cases ran.
func goalLines(results []result, bigName string) []string {
	by := map[string]result{}
	for _, r := range results {
		by[r.c.name] = r
	}
	verdict := func(x, limit float64) string {
		if x <= limit {
			return "PASS"
		}
		return "MISS"
	}
	var out []string
	vsFloor := func(name string, limit float64) {
		if r, ok := by[name]; ok {
			x := ratio(median(r.Loop, wallOf), median(r.Floor, wallOf))
			out = append(out, fmt.Sprintf("%s: %s vs floor %.2f× (goal ≤ %.1f×)", verdict(x, limit), name, x, limit))
		}
	}
	vsFloor("typical", 2)
	vsFloor("large", 25)
	for _, name := range []string{"no state", "codex", "gemini", "copilot", "claude", "qwen", "droid", "on-loop", "loop-controller", "orchestrator", "deep nothing"} {
		vsFloor(name, 2)
	}
	small, ok1 := by["marker 1KB"]
	big, ok2 := by[bigName]
	if ok1 && ok2 {
		// Each case's runs are minutes apart from the other's, so the plain
		// ratio carries the machine's drift between them; dividing each
		// by its own floor, timed in the same minutes, takes most of it out.
		x := ratio(median(big.Loop, wallOf), median(small.Loop, wallOf))
		xn := ratio(median(big.Loop, wallOf), median(big.Floor, wallOf)) /
			ratio(median(small.Loop, wallOf), median(small.Floor, wallOf))
		out = append(out, fmt.Sprintf("%s: %s vs marker 1KB %.2f× against each one's floor (%.2f× plainly) (goal ≤ 1.2×)", verdict(xn, 1.2), bigName, xn, x))
	}
	if r, ok := by[budgetName(bigName)]; ok {
		x := ratio(median(r.Loop, wallOf), median(r.Floor, wallOf))
		out = append(out, fmt.Sprintf("%s: %s vs cat of the transcript %.2f× (goal ≤ 4×)", verdict(x, 4), r.c.name, x))
	}
	return out
}
