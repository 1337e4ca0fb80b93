package hostfile

import (
	"strings"
	"testing"
)

// install is what loophook install does to a file, in small: a handler
// group appended to hooks.Stop, created as needed.
func install(t *testing.T, d *JSON) {
	t.Helper()
	top := d.Top()
	hooks, err := top.Object("hooks", "/hooks")
	if err != nil {
		t.Fatal(err)
	}
	if hooks == nil {
		hooks = top.AddObject("hooks")
	}
	list, err := hooks.List("Stop", "/hooks/Stop")
	if err != nil {
		t.Fatal(err)
	}
	if list == nil {
		list = hooks.AddList("Stop")
	}
	list.Append([]Member{{"hooks", []any{[]Member{{"type", "command"}, {"command", "loophook stop"}}}}})
}

// uninstall takes out what install added, and hooks when it is empty.
func uninstall(t *testing.T, d *JSON) {
	t.Helper()
	top := d.Top()
	hooks, _ := top.Object("hooks", "")
	list, _ := hooks.List("Stop", "")
	list.RemoveIf(func(i int) bool { return i == list.Len()-1 })
	if list.Len() == 0 {
		hooks.Remove("Stop")
	}
	if hooks.Len() == 0 {
		top.Remove("hooks")
	}
}

func TestJSONEdits(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		comments       bool
	}{
		{"empty", "", "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"loophook stop\"\n          }\n        ]\n      }\n    ]\n  }\n}\n", false},
		{"CRLF and a tab", "{\r\n\t\"a\": 1\r\n}\r\n", "{\r\n\t\"a\": 1,\r\n\t\"hooks\": {\r\n\t\t\"Stop\": [\r\n\t\t\t{\r\n\t\t\t\t\"hooks\": [\r\n\t\t\t\t\t{\r\n\t\t\t\t\t\t\"type\": \"command\",\r\n\t\t\t\t\t\t\"command\": \"loophook stop\"\r\n\t\t\t\t\t}\r\n\t\t\t\t]\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}\r\n", false},
		{"byte order mark", "\xef\xbb\xbf{\"a\": 1}", "\xef\xbb\xbf{\"a\": 1, \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"loophook stop\"}]}]}}", false},
		{"comments inside hooks", "{\n  \"hooks\": {\n    // mine\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]} /* keep */\n    ]\n  }\n}\n",
			"{\n  \"hooks\": {\n    // mine\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]} /* keep */,\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"loophook stop\"\n          }\n        ]\n      }\n    ]\n  }\n}\n", true},
		{"comment in an empty hooks", "{\"hooks\": {\n  // none yet\n}}\n", "{\"hooks\": {\n  // none yet\n  \"Stop\": [\n    {\n      \"hooks\": [\n        {\n          \"type\": \"command\",\n          \"command\": \"loophook stop\"\n        }\n      ]\n    }\n  ]\n}}\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ParseJSON([]byte(tc.in), tc.comments)
			if err != nil {
				t.Fatal(err)
			}
			install(t, d)
			if got := string(d.Bytes()); got != tc.want {
				t.Fatalf("install:\n%q\nwant\n%q", got, tc.want)
			}
			if tc.in == "" || strings.Contains(tc.in, "none yet") {
				return // hooks was install's; its removal leaves {} or the comment
			}
			d, _ = ParseJSON([]byte(tc.want), tc.comments)
			uninstall(t, d)
			if got := string(d.Bytes()); got != tc.in {
				t.Fatalf("uninstall:\n%q\nwant the file as it was\n%q", got, tc.in)
			}
		})
	}
}

// TestNoTrailingComma: taking out the last item never leaves a comma
// after the one before it, which Gemini CLI would refuse.
func TestNoTrailingComma(t *testing.T) {
	in := "{\"hooks\": {\"Stop\": [{\"hooks\": []} , {\"hooks\": []}]}}"
	d, err := ParseJSON([]byte(in), true)
	if err != nil {
		t.Fatal(err)
	}
	hooks, _ := d.Top().Object("hooks", "")
	list, _ := hooks.List("Stop", "")
	list.RemoveIf(func(i int) bool { return i == 1 })
	if got, want := string(d.Bytes()), "{\"hooks\": {\"Stop\": [{\"hooks\": []} ]}}"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestJSONRefuses(t *testing.T) {
	for in, comments := range map[string]bool{`[]`: true, `{"a": 1,}`: false, "// c\n{}": false, `{"a":`: true} {
		if _, err := ParseJSON([]byte(in), comments); err == nil {
			t.Errorf("ParseJSON(%q, %v) took it", in, comments)
		}
	}
}

func TestTOMLEdit(t *testing.T) {
	in := "# mine\r\nmodel = \"gpt-5\"\r\nprompt = \"\"\"\r\n[projects.\"/not/a/table\"]\r\ntrust_level = \"no\"\r\n\"\"\"\r\n\r\n[projects.\"/src/a\"]\r\ntrust_level = \"untrusted\" # theirs\r\n"
	e := TOMLEdit{Set: []TOMLKey{
		{Table: []string{"projects", "/src/a"}, Key: "trust_level", Value: "trusted", Change: "a"},
		{Table: []string{"hooks", "state", "/src/a/.codex/hooks.json:stop:0:0"}, Key: "trusted_hash", Value: "sha256:x", Change: "b", Marked: true},
	}}
	out, changes, err := EditTOML([]byte(in), e)
	if err != nil {
		t.Fatal(err)
	}
	want := "# mine\r\nmodel = \"gpt-5\"\r\nprompt = \"\"\"\r\n[projects.\"/not/a/table\"]\r\ntrust_level = \"no\"\r\n\"\"\"\r\n\r\n[projects.\"/src/a\"]\r\ntrust_level = \"trusted\" # theirs\r\n\r\n[hooks.state.\"/src/a/.codex/hooks.json:stop:0:0\"]\r\ntrusted_hash = \"sha256:x\" # added by loophook install\r\n"
	if string(out) != want || strings.Join(changes, ",") != "a,b" {
		t.Fatalf("got %q (%q), want %q", out, changes, want)
	}
	// Withdrawn: only what install marked, with its table when it empties.
	back, changes, err := EditTOML(out, TOMLEdit{
		Withdraw: []TOMLKey{{Table: []string{"hooks", "state", "/src/a/.codex/hooks.json:stop:0:0"}, Key: "trusted_hash", Change: "b"}, {Table: []string{"projects", "/src/a"}, Key: "trust_level", Change: "a"}},
	})
	if err != nil || strings.Join(changes, ",") != "b" {
		t.Fatalf("withdraw: %v, %q", err, changes)
	}
	if want := strings.Replace(want, "\r\n[hooks.state.\"/src/a/.codex/hooks.json:stop:0:0\"]\r\ntrusted_hash = \"sha256:x\" # added by loophook install\r\n", "", 1); string(back) != want {
		t.Fatalf("withdraw: got %q, want %q", back, want)
	}
	// A table defined by a dotted key cannot take a header: refused.
	if _, _, err := EditTOML([]byte("projects.\"/src/a\".trust_level = \"trusted\"\n"), e); err == nil {
		t.Fatal("a dotted definition was edited")
	}
}
