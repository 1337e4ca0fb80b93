//go:build e2e

package e2e

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// The Claude Code release the suite runs against. It is pinned so that a
// new release cannot change what the hooks see without someone looking:
// PROTOCOL.md was observed on this version, and the integrity below is the
// tarball's npm integrity, so a corrupt cache or a swapped tarball fails
// loudly instead of running something else.
const (
	claudePackage   = "@anthropic-ai/claude-code-linux-x64"
	claudeVersion   = "2.1.330"
	claudeIntegrity = "sha512-9Gn+V7DtJ8M1nztP9CeDVl9g3RtrepI7rOFTyPRRnZe8D6zebIHKmC7OvBauucuAP0X0k85SDN/LPVZyjsGezQ=="
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

// cacheDir is where the extracted binary is kept between runs.
func cacheDir() (string, error) {
	if d := os.Getenv("LOOPHOOK_E2E_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir() // $XDG_CACHE_HOME, else ~/.cache
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "loophook-e2e"), nil
}

// fetchClaude returns the path of the pinned claude executable, downloading
// it with `npm pack` (npm's own configured registry) the first time and
// reusing the cached copy afterwards, with no network at all.
func fetchClaude(ctx context.Context) (string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("%w: the suite pins %s, which runs on linux/amd64 only, not %s/%s",
			errUnsupported, claudePackage, runtime.GOOS, runtime.GOARCH)
	}
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	final := filepath.Join(cache, "claude-code-linux-x64-"+claudeVersion)
	bin := filepath.Join(final, "claude")
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() {
		return bin, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	// Work in a private directory and rename it into place at the end, so
	// that an interrupted run or two runs at once never leave or see a
	// half-extracted binary.
	removeStale(cache)
	work, err := os.MkdirTemp(cache, "fetch-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)

	tgz, err := npmPack(ctx, work, claudePackage+"@"+claudeVersion)
	if err != nil {
		return "", err
	}
	if err := checkIntegrity(tgz, claudeIntegrity); err != nil {
		return "", err
	}
	dir := filepath.Join(work, "pkg")
	if err := extractFile(tgz, "package/claude", filepath.Join(dir, "claude")); err != nil {
		return "", err
	}
	if err := os.Rename(dir, final); err != nil {
		// Another run may have won the race; its copy is as good as ours.
		if _, statErr := os.Stat(bin); statErr == nil {
			return bin, nil
		}
		return "", err
	}
	return bin, nil
}

// removeStale deletes the work directories of fetches that were killed
// before their cleanup ran (half a gigabyte each); an hour is far longer
// than a fetch takes, so no live fetch loses its directory.
func removeStale(cache string) {
	stale, _ := filepath.Glob(filepath.Join(cache, "fetch-*"))
	for _, d := range stale {
		if fi, err := os.Stat(d); err == nil && time.Since(fi.ModTime()) > time.Hour {
			os.RemoveAll(d)
		}
	}
}

// npm settings for the metadata probe: when the registry refuses
// connections the suite skips within seconds, and when it is blackholed
// within about half a minute, instead of after npm's default minutes of
// retries. The download itself keeps npm's defaults: the tarball is about
// 175 MB.
var npmProbeFlags = []string{
	"--fetch-timeout=15000",
	"--fetch-retries=1",
	"--fetch-retry-mintimeout=1000",
	"--fetch-retry-maxtimeout=5000",
}

// npmPack downloads the tarball of spec (name@version) into dir and returns
// its path. npm picks the registry from its own configuration.
func npmPack(ctx context.Context, dir, spec string) (string, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("%w: npm is not installed: %v", errUnreachable, err)
	}
	ctx, cancel := context.WithTimeout(ctx, npmTimeout)
	defer cancel()
	run := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, npm, args...)
		cmd.Dir = dir // away from any package.json of the caller's
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("%w: npm %s %s: %v\n%s", errUnreachable,
				args[0], spec, err, npmErrors(stderr.String()))
		}
		return stdout.Bytes(), nil
	}

	if _, err := run(append([]string{"view", spec, "version"}, npmProbeFlags...)...); err != nil {
		return "", err
	}
	out, err := run("pack", spec, "--json", "--pack-destination", dir)
	if err != nil {
		return "", err
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(out, &packed); err != nil || len(packed) != 1 {
		return "", fmt.Errorf("npm pack printed no single tarball (%v): %s", err, out)
	}
	return filepath.Join(dir, packed[0].Filename), nil
}

// npmErrors keeps the gist of npm's complaint: its "npm error" lines
// without the stack trace and the config warnings.
func npmErrors(stderr string) string {
	var keep []string
	for _, line := range strings.Split(stderr, "\n") {
		rest, ok := strings.CutPrefix(line, "npm error ")
		if !ok || rest == "" || strings.HasPrefix(rest, " ") { // stack, object dump
			continue
		}
		if keep = append(keep, line); len(keep) == 4 {
			break
		}
	}
	if len(keep) == 0 {
		return strings.TrimSpace(stderr)
	}
	return strings.Join(keep, "\n")
}

// checkIntegrity compares a file with an npm "sha512-<base64>" integrity.
func checkIntegrity(path, want string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha512.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	got := "sha512-" + base64.StdEncoding.EncodeToString(h.Sum(nil))
	if got != want {
		return fmt.Errorf("%s: integrity %s, want %s", filepath.Base(path), got, want)
	}
	return nil
}

// extractFile copies one regular file out of a .tgz as an executable.
func extractFile(tgz, name, dst string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", tgz, err)
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return fmt.Errorf("%s: no %s inside", filepath.Base(tgz), name)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", tgz, err)
		}
		if hdr.Name != name || hdr.Typeflag != tar.TypeReg {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, tr); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	}
}
