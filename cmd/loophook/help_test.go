package main

import (
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every command tells a newcomer what it is for and shows how to run it.
func TestEveryCommandHasHelp(t *testing.T) {
	app := newApp(strings.NewReader(""), io.Discard, io.Discard, "")
	for _, c := range app.Commands {
		if c.Usage == "" {
			t.Errorf("%s has no Usage", c.Name)
		}
		if !strings.Contains(c.Description, "Example") || !strings.Contains(c.Description, "loophook "+c.Name) {
			t.Errorf("%s's Description has no example of loophook %s", c.Name, c.Name)
		}
	}
}

// TestCommandsAreNamed holds the table's names to the commands they build.
func TestCommandsAreNamed(t *testing.T) {
	for _, c := range commands {
		if got := c.build().Name; got != c.name {
			t.Errorf("the table names %q, the command is %q", c.name, got)
		}
	}
}

// TestReadmeFits: the README is at most 300 lines; what is reference lives
// in the READMEs beside the code it describes (issue 32).
func TestReadmeFits(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 300 {
		t.Errorf("README.md has %d lines, at most 300: move reference to criteria/README.md, hook/host/README.md or cmd/loophook/README.md", n)
	}
}

// TestReadmesAgree: the README and the plugin's README name the plugin
// alike, and every go install line in them builds with the Makefile's tags
// (issue 23 item 14).
func TestReadmesAgree(t *testing.T) {
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	tags := regexp.MustCompile(`(?m)^TAGS\s*[:?]?=\s*(\S+)`).FindSubmatch(makefile)
	if tags == nil {
		t.Fatal("the Makefile sets no TAGS")
	}
	for _, f := range []string{"../../README.md", "../../.claude-plugin/README.md"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if !strings.Contains(text, "/plugin install loophook@loophook") || strings.Contains(text, "/plugin install loophook\n") {
			t.Errorf("%s does not name the plugin loophook@loophook", f)
		}
		// Commands to run: on a line of their own or in backticks (the
		// plugin's message when loophook is missing quotes a shorter one).
		for _, line := range regexp.MustCompile("(?m)(^|`)go install [^`\n]*@latest").FindAllString(text, -1) {
			if !strings.Contains(line, "-tags "+string(tags[1])) {
				t.Errorf("%s: %q lacks -tags %s", f, line, tags[1])
			}
		}
	}
}
