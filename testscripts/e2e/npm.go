//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// npmInstall installs spec into dir with npm, working in work. Its errors
// wrap errUnreachable: the suite skips, loudly.
func npmInstall(ctx context.Context, work, dir, spec string, timeout time.Duration, flags ...string) error {
	_, err := runNPM(ctx, work, spec, timeout,
		append([]string{"install", "--prefix", dir, spec, "--no-audit", "--no-fund"}, flags...)...)
	return err
}

// runNPM runs npm with args for spec in work (away from any package.json
// of the caller's), within timeout, after a quick look that the registry
// answers for spec, and returns what it printed. Its errors wrap
// errUnreachable: the suite skips, loudly.
func runNPM(ctx context.Context, work, spec string, timeout time.Duration, args ...string) ([]byte, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, fmt.Errorf("%w: npm is not installed: %v", errUnreachable, err)
	}
	env, err := npmEnv(work)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	run := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, npm, args...)
		cmd.Dir = work
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("%w: npm %s %s: %v\n%s", errUnreachable,
				args[0], spec, err, npmErrors(stderr.String()))
		}
		return stdout.Bytes(), nil
	}
	if _, err := run(append([]string{"view", spec, "version"}, npmProbeFlags...)...); err != nil {
		return nil, err
	}
	return run(args...)
}

// npmEnv is npm's environment: ours, but with a home, cache and logs of
// its own in work, so that npm writes nothing into the real home (work and
// all in it go once the install is in place), while it still reads the
// person's npm configuration, and so reaches the registry that names.
func npmEnv(work string) ([]string, error) {
	userconfig := ""
	for _, key := range []string{"npm_config_userconfig", "NPM_CONFIG_USERCONFIG"} {
		if v := os.Getenv(key); v != "" && userconfig == "" {
			userconfig = v
		}
	}
	if userconfig == "" {
		if home, err := os.UserHomeDir(); err == nil {
			userconfig = filepath.Join(home, ".npmrc")
		}
	}
	home := filepath.Join(work, "npm-home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		key, _, _ := strings.Cut(kv, "=")
		switch strings.ToLower(key) {
		case "home", "npm_config_cache", "npm_config_userconfig", "npm_config_logs_dir":
			return true
		}
		return false
	})
	env = append(env,
		"HOME="+home,
		"npm_config_cache="+filepath.Join(home, ".npm"),
		"npm_config_logs_dir="+filepath.Join(home, ".npm", "_logs"),
		"npm_config_update_notifier=false",
	)
	if userconfig != "" {
		env = append(env, "npm_config_userconfig="+userconfig)
	}
	return withGlobalConfig(env), nil
}

// withGlobalConfig names npm's global configuration file in env, as npm
// finds it without --prefix: install's --prefix moves the global prefix,
// and the file npm looks for with it, so that a machine's own settings
// there (the certificate authority its registry needs, say) would be lost.
func withGlobalConfig(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(strings.ToLower(kv), "npm_config_globalconfig=") {
			return env
		}
	}
	cmd := exec.Command("npm", "config", "get", "globalconfig")
	cmd.Env = env
	out, err := cmd.Output()
	if path := strings.TrimSpace(string(out)); err == nil && path != "" {
		env = append(env, "npm_config_globalconfig="+path)
	}
	return env
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
	out, err := runNPM(ctx, dir, spec, npmTimeout, "pack", spec, "--json", "--pack-destination", dir)
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

// npmLocked is a package as npm's lock file records it: the version it
// installed and the tarball integrity it checked.
type npmLocked struct {
	Version   string `json:"version"`
	Integrity string `json:"integrity"`
}

// readNPMLock reads the lock file at rel under dir (package-lock.json, or
// npm's hidden node_modules/.package-lock.json) and returns its packages
// by path, "node_modules/<name>".
func readNPMLock(dir, rel string) (map[string]npmLocked, error) {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	var lock struct {
		Packages map[string]npmLocked `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return nil, fmt.Errorf("%s: %v", rel, err)
	}
	return lock.Packages, nil
}
