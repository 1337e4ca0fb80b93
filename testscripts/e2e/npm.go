//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"time"
)

// npmInstall installs spec into dir with npm, working in work (away from
// any package.json of the caller's), after a quick look that the registry
// answers. Its errors wrap errUnreachable: the suite skips, loudly.
func npmInstall(ctx context.Context, work, dir, spec string, timeout time.Duration, flags ...string) error {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("%w: npm is not installed: %v", errUnreachable, err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	run := func(args ...string) error {
		cmd := exec.CommandContext(ctx, npm, args...)
		cmd.Dir = work
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%w: npm %s %s: %v\n%s", errUnreachable,
				args[0], spec, err, npmErrors(stderr.String()))
		}
		return nil
	}
	if err := run(append([]string{"view", spec, "version"}, npmProbeFlags...)...); err != nil {
		return err
	}
	return run(append([]string{"install", "--prefix", dir, spec, "--no-audit", "--no-fund"}, flags...)...)
}
