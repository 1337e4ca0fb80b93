package main

import (
	"regexp"
	"strings"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	shape := regexp.MustCompile(`^\S+ \([^()\s]+\)$`)
	if got := buildVersion(); !shape.MatchString(got) {
		t.Errorf("buildVersion() = %q, want <version> (<commit>)", got)
	}

	// What the release build sets with -ldflags -X.
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "v1.2.3", "0123456789abcdef0123456789abcdef01234567"
	if got, want := buildVersion(), "v1.2.3 (0123456789ab)"; got != want {
		t.Errorf("with ldflags: buildVersion() = %q, want %q", got, want)
	}
	// GoReleaser sets the commit to "none" when git told it nothing.
	version, commit = "v1.2.3", "none"
	if got := buildVersion(); !shape.MatchString(got) || strings.Contains(got, "none") {
		t.Errorf(`with commit "none": buildVersion() = %q, want the commit from the build info or "unknown"`, got)
	}
}
