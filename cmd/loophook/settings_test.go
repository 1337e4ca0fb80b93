package main

import (
	"strings"
	"testing"
)

const bin = "/opt/loophook/bin/loophook"

func TestObjectRoundTrip(t *testing.T) {
	// What JSON.stringify(v, null, 2) writes comes back byte for byte.
	in := `{
  "b": 1,
  "a": {
    "z": [],
    "y": {},
    "x": [
      1.50,
      "<&>",
      null,
      true
    ]
  },
  "b": "twice"
}
`
	doc, err := decodeObject([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(encode(doc)); got != in {
		t.Errorf("round trip:\n%s\nwant:\n%s", got, in)
	}
	if v, _ := doc.get("b"); v != "twice" {
		t.Errorf(`get("b") = %v, want the last "b"`, v)
	}
}

func TestDecodeObjectRefuses(t *testing.T) {
	for in, want := range map[string]string{
		`[]`:              "not a JSON object",
		`"x"`:             "not a JSON object",
		`{"a":1,}`:        "not valid JSON at line 1, column 8",
		"{\n  \"a\": 1\n": "not valid JSON: it ends too soon",
		`{"a":1}{}`:       "not valid JSON at line 1, column 8",
		"{\n\t// no\n}":   "not valid JSON at line 2, column 2",
	} {
		if _, err := decodeObject([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("decodeObject(%q) = %v, want %q", in, err, want)
		}
	}
}

func TestInstallIsIdempotent(t *testing.T) {
	for _, in := range []string{
		`{}`,
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/x/loophook stop --protocol claude --guard-limit 5"}]}]}}`,
		`{"env":{"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP":"20"},"hooks":{"Stop":[],"SessionStart":[{"matcher":"startup","hooks":[]}]}}`,
	} {
		doc, err := decodeObject([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := installHooks(doc, bin, nil); err != nil {
			t.Fatal(err)
		}
		first := string(encode(doc))
		changes, _, err := installHooks(doc, bin, nil)
		if err != nil || len(changes) > 0 || string(encode(doc)) != first {
			t.Errorf("second install of %s changed %q (%v):\n%s", in, changes, err, encode(doc))
		}
	}
}

func TestUninstallUndoesInstall(t *testing.T) {
	for _, in := range []string{
		`{}`,
		`{"model":"x","env":{"A":"1"},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say"}]}]}}`,
		`{"hooks":{"SessionStart":[{"matcher":"startup","hooks":[]}]}}`,
	} {
		doc, err := decodeObject([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		want := string(encode(doc))
		if _, _, err := installHooks(doc, bin, nil); err != nil {
			t.Fatal(err)
		}
		if _, _, err := uninstallHooks(doc, bin, nil); err != nil {
			t.Fatal(err)
		}
		if got := string(encode(doc)); got != want {
			t.Errorf("install then uninstall of %s gives\n%s\nwant\n%s", in, got, want)
		}
	}
}

func TestParseCall(t *testing.T) {
	for _, tc := range []struct {
		cmd     string
		command string
		want    bool
	}{
		{"/usr/bin/loophook stop --protocol claude", "stop", true},
		{"loophook stop", "stop", true},
		{"  /a/loophook   stop --protocol claude --stuck-limit 3", "stop", true},
		{"'/my dir/loophook' stop --protocol claude", "stop", true},
		{`"/my dir/loophook" session-start --protocol claude`, "session-start", true},
		{`/my\ dir/loophook stop`, "stop", true},
		{`C:\tools\loophook.exe stop --protocol claude`, "stop", false}, // a backslash escapes, as in sh
		{`'C:\tools\loophook.exe' stop --protocol claude`, "stop", true},
		{"/usr/bin/loophook session-start --protocol claude", "stop", false},
		{"/usr/bin/loophook-old stop --protocol claude", "stop", false},
		{"audit.sh loophook stop --protocol claude", "stop", false},
		{"LOOPHOOK_GUARD_LIMIT=4 /usr/bin/loophook stop --protocol claude", "stop", true},
		{`A="x y" B='' env C=1 loophook stop`, "stop", true},
		{"exec ./bin/loophook stop", "stop", true},
		{"FOO=1 audit.sh loophook stop", "stop", false},
		{"env -i loophook stop", "stop", false}, // env's options are not taken apart
		{"LOOPHOOK_GUARD_LIMIT=4", "stop", false},
		{"1X=2 loophook stop", "stop", false}, // not an assignment: a program named 1X=2
		{"'/unclosed/loophook stop", "stop", false},
		{"", "stop", false},
	} {
		if _, got := parseCall(tc.cmd, "", tc.command); got != tc.want {
			t.Errorf("parseCall(%q, %q) = %v, want %v", tc.cmd, tc.command, got, tc.want)
		}
	}
}

func TestRepointed(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		moved    bool
	}{
		{"/old/loophook stop --protocol claude", bin + " stop --protocol claude", true},
		{"LOOPHOOK_GUARD_LIMIT=4 /old/loophook stop --protocol claude", "LOOPHOOK_GUARD_LIMIT=4 " + bin + " stop --protocol claude", true},
		{"  loophook stop --stuck-limit 8 --protocol claude  ", bin + " stop --stuck-limit 8 --protocol claude", true},
		{"loophook stop", bin + " stop --protocol claude", true},
		{"loophook stop 2>>/tmp/loophook.log", bin + " stop --protocol claude 2>>/tmp/loophook.log", true},
		{`A="x y" env B=1 loophook session-start`, `A="x y" env B=1 ` + bin + " session-start --protocol claude", true},
		{bin + " stop --protocol ok --guard-limit 4", bin + " stop --protocol claude --guard-limit 4", false},
		{bin + " stop -protocol=ok", bin + " stop -protocol=claude", false},
		{bin + " stop --protocol", bin + " stop --protocol claude", false},
		{bin + " stop --protocol 'claude'", bin + " stop --protocol 'claude'", false},
		{"say done", bin + " stop --protocol claude", true},
	} {
		command := "stop"
		if strings.Contains(tc.in, "session-start") {
			command = "session-start"
		}
		got, moved := repointed(tc.in, bin, command)
		if got != tc.want || moved != tc.moved {
			t.Errorf("repointed(%q) = %q, %v; want %q, %v", tc.in, got, moved, tc.want, tc.moved)
		}
		// What it makes is loophook's and needs no further change.
		if again, _ := repointed(got, bin, command); again != got {
			t.Errorf("repointed(%q) = %q, not %q", got, again, got)
		}
	}
	// A program named as LOOPHOOK_BIN names it is loophook's, whatever its name.
	if _, ok := parseCall("X=1 /nix/store/abc/bin/lh stop", "/nix/store/abc/bin/lh", "stop"); !ok {
		t.Error("LOOPHOOK_BIN's program is not recognised")
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/local/bin/loophook": "/usr/local/bin/loophook",
		"/opt/my tools/loophook":  "'/opt/my tools/loophook'",
		"/it's/loophook":          `'/it'\''s/loophook'`,
		`C:\bin\loophook.exe`:     `'C:\bin\loophook.exe'`,
	} {
		got := shellQuote(in)
		if got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
		// What is quoted reads back as the path, and as loophook's.
		if words, ok := shellWords(got + " stop"); !ok || len(words) != 2 || words[0].text != in {
			t.Errorf("shellWords(%s) = %+v, want %q first", got, words, in)
		}
		if !strings.HasSuffix(in, "loophook") && !strings.HasSuffix(in, ".exe") {
			continue
		}
		if _, ok := parseCall(hookCommand(in, "stop"), "", "stop"); !ok {
			t.Errorf("parseCall(hookCommand(%q)) is not loophook's", in)
		}
	}
}
