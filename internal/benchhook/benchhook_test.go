package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestTranscript(t *testing.T) {
	tail := transcriptTail()
	if n := len(tail); n < 800 || n > 1400 {
		t.Errorf("the 1KB transcript is %d bytes", n)
	}
	for _, size := range []int64{10, 300 << 10, 9 << 20} {
		path := filepath.Join(t.TempDir(), "t.jsonl")
		if err := writeTranscript(path, size); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(b, tail) {
			t.Fatalf("size %d: the transcript does not end with the 1KB one", size)
		}
		if size > int64(len(tail)) && (int64(len(b)) > size || int64(len(b)) < size-8<<10) {
			t.Errorf("size %d: wrote %d bytes", size, len(b))
		}
		if n := bytes.Count(b, []byte("<loop-complete>")); n != 1 {
			t.Errorf("size %d: <loop-complete> appears %d times, want once, unescaped", size, n)
		}
		if len(b) > 1<<20 {
			b = b[len(b)-1<<20:] // the lines are checked in one of smaller size
			b = b[bytes.IndexByte(b, '\n')+1:]
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		var last map[string]any
		lines := 0
		for sc.Scan() {
			lines++
			last = nil
			if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
				t.Fatalf("size %d, line %d: %v", size, lines, err)
			}
		}
		if last["type"] != "assistant" {
			t.Fatalf("size %d: the last line is a %v, not an assistant message", size, last["type"])
		}
		content := last["message"].(map[string]any)["content"].([]any)
		text := content[0].(map[string]any)["text"].(string)
		if !strings.Contains(text, "<loop-complete>") {
			t.Errorf("size %d: the last assistant text %q lacks the marker", size, text)
		}
	}
}

func TestEnsureTranscriptKeep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if reused, err := ensureTranscript(path, 200<<10, true); err != nil || reused {
		t.Fatalf("first: reused=%v err=%v", reused, err)
	}
	if reused, err := ensureTranscript(path, 200<<10, true); err != nil || !reused {
		t.Fatalf("second: reused=%v err=%v", reused, err)
	}
	if reused, err := ensureTranscript(path, 300<<10, true); err != nil || reused {
		t.Fatalf("other size: reused=%v err=%v", reused, err)
	}
	if reused, err := ensureTranscript(path, 300<<10, false); err != nil || reused {
		t.Fatalf("without keep: reused=%v err=%v", reused, err)
	}
}

func TestStates(t *testing.T) {
	for _, tc := range []struct{ n, met int }{{20, 10}, {20, 20}, {10000, 5000}} {
		st := makeState(tc.n, tc.met, tc.met == tc.n, 8)
		if got := countMet(st); got != tc.met {
			t.Errorf("%d criteria: %d met, want %d", tc.n, got, tc.met)
		}
		seen := map[string]bool{}
		for _, c := range st.Criteria {
			if len(c) < 60 || len(c) > 100 {
				t.Errorf("criterion %q is %d bytes", c, len(c))
			}
			if seen[c] {
				t.Errorf("criterion %q twice", c)
			}
			seen[c] = true
		}
		if len(st.CriteriaStatus) != tc.n {
			t.Errorf("%d criteria but %d statuses", tc.n, len(st.CriteriaStatus))
		}
	}
	dir := t.TempDir()
	st := makeState(10000, 5000, false, 200)
	size, err := writeCaseDir(dir, &st)
	if err != nil {
		t.Fatal(err)
	}
	if size < 2<<20 {
		t.Errorf("the large state is only %d bytes", size)
	}
	if fi, err := os.Stat(filepath.Join(dir, ".git")); err != nil || !fi.IsDir() {
		t.Errorf("no .git directory: %v", err)
	}
}

func TestInput(t *testing.T) {
	in := makeInput("/tmp/x", "/tmp/t.jsonl", nil)
	var m map[string]any
	if err := json.Unmarshal(in, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["last_assistant_message"]; ok {
		t.Error("last_assistant_message present though none was given")
	}
	if m["hook_event_name"] != "Stop" || m["cwd"] != "/tmp/x" || m["stop_hook_active"] != false {
		t.Errorf("input %s", in)
	}
}

func TestCheckVerdict(t *testing.T) {
	for out, want := range map[string]string{
		`{"ok":true,"reason":""}` + "\n":          "",
		`{"ok":false,"reason":"go on"}`:           "",
		`{"ok":false}`:                            "",
		``:                                        "empty",
		`{"ok":true}{"ok":true}`:                  "invalid",
		`{"ok":"yes","reason":""}`:                "cannot unmarshal",
		`{"decision":"block","reason":"go on"}`:   "",
		`{"ok":true,"reason":3}`:                  `"reason" is not a string`,
		`[{"ok":true}]`:                           "not an object",
		`{"ok":true,"reason":"" trailing garbage`: "invalid",
	} {
		_, err := checkVerdict([]byte(out))
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("checkVerdict(%q) = %v, want %q", out, err, want)
		}
	}
}

func TestSelectCases(t *testing.T) {
	sel, err := selectCases("typical, Marker-1KB,marker 1gb", "marker 1GB")
	if err != nil {
		t.Fatal(err)
	}
	if !sel["typical"] || !sel["marker1kb"] || !sel["marker1gb"] || sel["large"] {
		t.Errorf("selected %v", sel)
	}
	if _, err := selectCases("huge", "marker 1GB"); err == nil {
		t.Error("an unknown case was accepted")
	}
	for s, want := range map[string]int64{"1GB": 1 << 30, "100MB": 100 << 20, "1.5KiB": 1536, "42": 42} {
		if got, err := parseSize(s); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v", s, got, err)
		}
	}
}

// TestRunner runs the floor against itself and two broken stand-ins.
func TestRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the floor")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	dir := t.TempDir()
	floor := filepath.Join(dir, "floor")
	build := exec.Command(goBin, "build", "-o", floor, "../floor")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the floor: %v\n%s", err, out)
	}
	yes := true
	j := job{
		Loophook: floor, Floor: floor, Args: []string{"stop"}, Dir: dir, Env: os.Environ(),
		Stdin: makeInput(dir, "/nonexistent", nil), N: 5, Warmup: 1, MaxTime: time.Minute,
		WantOK: &yes, OutDir: dir,
	}
	res, err := j.run()
	if err != nil {
		t.Fatal(err)
	}
	if res.Fail != nil {
		t.Fatalf("failure: %+v", res.Fail)
	}
	if len(res.Loop) != 5 || len(res.Floor) != 5 {
		t.Fatalf("%d and %d samples, want 5 each", len(res.Loop), len(res.Floor))
	}
	for _, s := range append(res.Loop, res.Floor...) {
		if s.Wall <= 0 || (s.RSS <= 0 && runtime.GOOS == "linux") {
			t.Errorf("sample %+v", s)
		}
	}
	if strings.TrimSpace(res.LastOutput) != `{"ok":true,"reason":""}` {
		t.Errorf("last output %q", res.LastOutput)
	}

	no := false
	j.WantOK = &no
	if res, err := j.run(); err != nil || res.Fail == nil || !strings.Contains(res.Fail.What, "expects ok=false") {
		t.Errorf("a wrong verdict passed: %+v, %v", res, err)
	}
	j.WantOK = nil
	for _, bad := range []struct{ bin, args, want string }{
		{"/bin/echo", "not json", "not one JSON verdict"},
		{"/bin/false", "", "exited with"},
	} {
		if _, err := os.Stat(bad.bin); err != nil {
			continue
		}
		j.Loophook, j.Args = bad.bin, strings.Fields(bad.args)
		res, err := j.run()
		if err != nil || res.Fail == nil || !strings.Contains(res.Fail.What, bad.want) {
			t.Errorf("%s passed: %+v, %v", bad.bin, res, err)
		}
	}
}

// TestSettled: the programs are timed from copies, byte for byte the same,
// executable, and apart even when both given have the same name.
func TestSettled(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b"} {
		must(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, name, "loophook"), []byte("#!/bin/sh\necho "+name+"\n"), 0o755))
	}
	lh, err := settled(filepath.Join(dir, "a", "loophook"), dir, "loophook")
	must(t, err)
	floor, err := settled(filepath.Join(dir, "b", "loophook"), dir, "floor")
	must(t, err)
	for prog, want := range map[string]string{lh: "a", floor: "b"} {
		fi, err := os.Stat(prog)
		must(t, err)
		data, err := os.ReadFile(prog)
		must(t, err)
		// Windows has no execute bits: a program is one by its name.
		if runtime.GOOS != "windows" && fi.Mode()&0o111 == 0 || string(data) != "#!/bin/sh\necho "+want+"\n" {
			t.Errorf("%s: mode %v, %q", prog, fi.Mode(), data)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
