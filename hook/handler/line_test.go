package handler

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// shellLines are command lines as people write hooks, and some that are not.
var shellLines = []string{
	`/opt/loophook/bin/loophook stop --protocol claude`,
	`'/home/me/my tools/loophook' session-start --protocol=ok`,
	`"/home/me/my \"tools\"/loophook" stop`,
	`LOOPHOOK_GUARD_LIMIT=4 loophook stop --stuck-limit 8`,
	`env LOOPHOOK_STUCK_LIMIT=8 ./bin/loophook stop --guard-limit 4`,
	`exec loophook stop`,
	`cd /srv/app && loophook stop --protocol claude`,
	`cd "/srv/my app" && env X=1 loophook session-start`,
	"loophook\tstop\n",
	`lo\ophook st"o"p`,
	`a 'b c' "d\$e" f\ g`,
	`"x\
y" z`,
	`echo 'open`,
	`echo "open`,
	`audit.sh loophook stop --protocol claude`,
	`loophook stop; rm -rf /`,
	`$HOME/bin/loophook stop`,
}

// FuzzShellWords holds shellWords to mvdan.cc/sh's parser: where the line
// is one simple command whose words are literal (no expansions, operators,
// redirections or comments), shellWords splits it, into the same words.
func FuzzShellWords(f *testing.F) {
	for _, l := range shellLines {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, ok := shellWords(line)
		file, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(line), "")
		want, simple := literalWords(file, err)
		if !simple || strings.ContainsAny(line, "\x00\r") || strings.Contains(line, `\\\`+"\n") {
			// Not a line sh runs as one command of literal words; or one
			// with a NUL, which no shell is given; or where the parser
			// differs from dash and bash: it drops a carriage return, and
			// keeps a line continuation that follows an escaped backslash.
			return
		}
		if !ok {
			t.Fatalf("shellWords refuses %q, which sh parses as %q", line, want)
		}
		var got []string
		for _, w := range words {
			got = append(got, w.Text)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("shellWords(%q) = %q, sh says %q", line, got, want)
		}
	})
}

// literalWords are the words of a file that is one simple command with
// literal words only; simple is false for anything else.
func literalWords(file *syntax.File, err error) (words []string, simple bool) {
	if err != nil || len(file.Stmts) != 1 || len(file.Last) > 0 {
		return nil, false
	}
	st := file.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Semicolon.IsValid() || len(st.Redirs) > 0 || len(st.Comments) > 0 {
		return nil, false
	}
	for _, a := range call.Assigns {
		if a.Append || a.Naked || a.Index != nil || a.Array != nil || a.Value == nil || !literal(a.Value) {
			return nil, false
		}
		v, ok := unquoted(a.Value)
		if !ok {
			return nil, false
		}
		words = append(words, a.Name.Value+"="+v)
	}
	for _, w := range call.Args {
		if !literal(w) {
			return nil, false
		}
		v, ok := unquoted(w)
		if !ok {
			return nil, false
		}
		words = append(words, v)
	}
	return words, len(words) > 0
}

// unquoted is a literal word with its quotes removed, as sh does before it
// runs the command (no globbing: the config reads no directory).
func unquoted(w *syntax.Word) (string, bool) {
	fields, err := expand.Fields(&expand.Config{}, w)
	if err != nil || len(fields) != 1 {
		return "", false
	}
	return fields[0], true
}

// literal reports whether a word has no expansion of any kind.
func literal(w *syntax.Word) bool {
	if lit := w.Lit(); strings.HasPrefix(lit, "~") {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.HasPrefix(p.Value, "~") && p == w.Parts[0] {
				return false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return false
			}
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// TestShellWordsSeeds runs the fuzz target's seeds, and checks that the
// oracle takes the ones it should.
func TestShellWordsSeeds(t *testing.T) {
	for _, l := range shellLines {
		if _, ok := shellWords(l); !ok && !strings.Contains(l, "open") {
			t.Errorf("shellWords(%q) refused", l)
		}
	}
	file, err := syntax.NewParser().Parse(strings.NewReader(shellLines[1]), "")
	if words, simple := literalWords(file, err); !simple || words[0] != "/home/me/my tools/loophook" {
		t.Errorf("the oracle reads %q as %q, %v", shellLines[1], words, simple)
	}
}

// TestShellWordsAsShDoes: what the fuzz target found shellWords getting
// wrong, each checked against dash: a comment, a backslash with nothing to
// escape, a line continuation before any word, a NUL.
func TestShellWordsAsShDoes(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string // nil: refused
	}{
		{"loophook stop # mine", []string{"loophook", "stop"}},
		{"loophook stop #one\nnext", []string{"loophook", "stop", "next"}},
		{"a#b", []string{"a#b"}},
		{`loophook \`, []string{"loophook", `\`}},
		{"\\\n loophook", []string{"loophook"}},
		{"a\\\nb", []string{"ab"}},
		{"loophook\x00stop", nil},
	} {
		words, ok := shellWords(tc.line)
		var got []string
		for _, w := range words {
			got = append(got, w.Text)
		}
		if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", tc.line, got, ok, tc.want)
		}
	}
}

// TestLoophookWrittenAnotherWay: the command lines a person may write for
// loophook's hook are recognised as loophook's, with what they run; the
// others are not.
func TestLoophookWrittenAnotherWay(t *testing.T) {
	for _, tc := range []struct {
		line string
		prog string // "" when it is not loophook's stop hook
	}{
		{`/opt/loophook/bin/loophook stop --protocol claude`, "/opt/loophook/bin/loophook"},
		{`cd /srv/app && loophook stop --protocol claude`, "loophook"},
		{`cd "/srv/my app" && env X=1 ./bin/loophook stop`, "./bin/loophook"},
		{`env X=1 loophook stop`, "loophook"},
		{`X=1 Y=2 exec loophook stop`, "loophook"},
		{`'/home/me/my tools/loophook' stop`, "/home/me/my tools/loophook"},
		{`/usr/bin/mine stop`, "/usr/bin/mine"}, // bin itself
		{`audit.sh loophook stop --protocol claude`, ""},
		{`loophook session-start`, ""},
		{`cd /srv/app || loophook stop`, ""},
		{`cd && loophook stop`, ""},
		{`echo 'open`, ""},
	} {
		c, ok := Parse(tc.line, "/usr/bin/mine", "stop")
		if got := map[bool]string{true: c.Prog.Text}[ok]; got != tc.prog {
			t.Errorf("Parse(%q) runs %q, want %q", tc.line, got, tc.prog)
		}
	}
}
