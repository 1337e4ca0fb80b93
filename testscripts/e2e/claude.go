//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// The Claude Code release the suite runs against. It is pinned so that a
// new release cannot change what the hooks see without someone looking:
// PROTOCOL.md was observed on this version, and the integrity below is the
// tarball's npm integrity, so a corrupt cache or a swapped tarball fails
// loudly instead of running something else.
const (
	claudePackage   = "@anthropic-ai/claude-code-linux-x64"
	claudeVersion   = "2.1.332"
	claudeIntegrity = "sha512-f4JWhzwYutJIHScC7/dYOPX6s28tt7ZADhsOi8zwOHq5fFPEuUeChh2NMfinSg0GrUckYxaeebC4h0DqiKzLcw=="
)

// npmTimeout bounds the download (the tarball is about 175 MB) and stays
// under go test's default -timeout of 10m, so that a crawling network
// ends in a skip that says so rather than in go test's panic.
const npmTimeout = 8 * time.Minute

// errUnreachable marks a failure to obtain Claude Code that is about the
// outside world (no npm, registry unreachable), not about this suite, and
// errUnsupported a platform the pinned binary does not run on: the suite
// skips on both, loudly, instead of failing.
var (
	errUnreachable = errors.New("npm registry unreachable")
	errUnsupported = errors.New("platform unsupported")
)

// fetchClaude returns the path of the pinned claude executable, downloading
// it with `npm pack` (npm's own configured registry) the first time and
// reusing the cached copy afterwards, with no network at all.
func fetchClaude(ctx context.Context) (string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("%w: the suite pins %s, which runs on linux/amd64 only, not %s/%s",
			errUnsupported, claudePackage, runtime.GOOS, runtime.GOARCH)
	}
	v, integrity, err := release(ctx, claudePackage, claudeVersion, claudeIntegrity)
	if err != nil {
		return "", err
	}
	return fetchExecutable(ctx, "claude-code-linux-x64-"+v, claudePackage+"@"+v, integrity, "claude")
}
