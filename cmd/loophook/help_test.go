package main

import (
	"io"
	"strings"
	"testing"
)

// Every command tells a newcomer what it is for and shows how to run it.
func TestEveryCommandHasHelp(t *testing.T) {
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	for _, c := range app.Commands {
		if c.Usage == "" {
			t.Errorf("%s has no Usage", c.Name)
		}
		if !strings.Contains(c.Description, "Example") || !strings.Contains(c.Description, "loophook "+c.Name) {
			t.Errorf("%s's Description has no example of loophook %s", c.Name, c.Name)
		}
	}
}
