package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook/release"
)

// version and commit are set by the release build (.goreleaser.yaml):
//
//	-ldflags "-X main.version=v1.2.3 -X main.commit=<full hash>"
//
// Other builds leave them empty and buildVersion reads what the go command
// stamped into the binary instead.
var version, commit string

// buildVersion is "<version> (<commit>)", the line `loophook --version`
// prints after the program's name.
func buildVersion() string { return release.Version(version, commit) }

// printVersion is the app's cli.VersionPrinter: `loophook <version> (<commit>)`.
func printVersion(c *cli.Context) {
	fmt.Fprintf(c.App.Writer, "%s %s\n", c.App.Name, c.App.Version)
}
