package main

import (
	"io"
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
