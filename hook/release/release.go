// Package release names the build of loophook that runs: its version and
// commit, from the release build's flags or what the go command stamped
// into the binary.
package release

import (
	"fmt"
	"runtime/debug"
)

// Version returns "<version> (<commit>)": the release's version and commit
// (what the release build sets with -ldflags -X), else the module version
// and VCS revision the go command recorded (a `go install ...@v1.2.3`
// records no revision, so the commit is "unknown"; a build in a work tree
// records the revision and whether the tree was modified).
func Version(version, commit string) string {
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
