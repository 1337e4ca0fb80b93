package main

import (
	"fmt"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// version and commit are set by the release build (.goreleaser.yaml):
//
//	-ldflags "-X main.version=v1.2.3 -X main.commit=<full hash>"
//
// Other builds leave them empty and buildVersion reads what the go command
// stamped into the binary instead.
var version, commit string

// buildVersion returns "<version> (<commit>)", the line `loophook
// --version` prints after the program's name: the release's version and
// commit, else the module version and VCS revision the go command recorded
// (a `go install ...@v1.2.3` records no revision, so the commit is
// "unknown"; a build in a work tree records the revision and whether the
// tree was modified).
func buildVersion() string {
	v, c := version, commit
	if c == "none" { // GoReleaser's commit when git told it nothing
		c = ""
	}
	var dirty bool
	if info, ok := debug.ReadBuildInfo(); ok && (v == "" || c == "") {
		if v == "" {
			v = info.Main.Version
		}
		var revision, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if c == "" {
			c, dirty = revision, modified == "true"
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	switch {
	case c == "":
		c = "unknown"
	case len(c) > 12: // as many hex digits as Go's pseudo-versions show
		c = c[:12]
	}
	if dirty {
		c += "+dirty" // as the go command marks a version built from a modified tree
	}
	return fmt.Sprintf("%s (%s)", v, c)
}

// printVersion is the app's cli.VersionPrinter: `loophook <version> (<commit>)`.
func printVersion(c *cli.Context) {
	fmt.Fprintf(c.App.Writer, "%s %s\n", c.App.Name, c.App.Version)
}
