//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// The suite runs every host at the release it pins, which its PROTOCOL.md
// was observed on. With LOOPHOOK_E2E_LATEST=1 (make e2e-latest) it runs
// each at the newest release npm publishes instead, resolved at run time
// and cached per version like a pinned one, so that the person who keeps
// loophook learns of a host that changed its hook protocol before the
// users do. TestMain prints which versions ran.

// latest says whether this run takes the newest releases.
func latest() bool { return os.Getenv("LOOPHOOK_E2E_LATEST") == "1" }

// ran records the release each host package ran at, for the summary.
var ran struct {
	sync.Mutex
	versions map[string]string // package → "version" or "version (pinned …)"
}

// release returns the version of pkg to run and the integrity its tarball
// must have: the pinned ones, or with latest() the newest published, as
// `npm view` reports it.
func release(ctx context.Context, pkg, version, integrity string) (string, string, error) {
	note := version
	if latest() {
		v, i, err := newest(ctx, pkg)
		if err != nil {
			return "", "", err
		}
		note = v + " (pinned " + version + ")"
		if v == version && i != integrity {
			return "", "", fmt.Errorf("%s@%s: the registry's integrity %s is not the pinned %s", pkg, v, i, integrity)
		}
		version, integrity = v, i
	}
	ran.Lock()
	defer ran.Unlock()
	if ran.versions == nil {
		ran.versions = map[string]string{}
	}
	ran.versions[pkg] = note
	return version, integrity, nil
}

// newest asks npm for the newest release of pkg and its tarball integrity.
func newest(ctx context.Context, pkg string) (version, integrity string, err error) {
	work, err := os.MkdirTemp("", "loophook-e2e-npm-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(work)
	out, err := runNPM(ctx, work, pkg, time.Minute, append([]string{"view", pkg + "@latest", "version", "dist.integrity", "--json"}, npmProbeFlags...)...)
	if err != nil {
		return "", "", err
	}
	var v struct {
		Version   string `json:"version"`
		Integrity string `json:"dist.integrity"`
	}
	if err := json.Unmarshal(out, &v); err != nil || v.Version == "" || v.Integrity == "" {
		return "", "", fmt.Errorf("npm view %s@latest: %v: %s", pkg, err, out)
	}
	return v.Version, v.Integrity, nil
}

// releasesRan is the summary line of the releases this run used.
func releasesRan() string {
	ran.Lock()
	defer ran.Unlock()
	var lines []string
	for pkg, v := range ran.versions {
		lines = append(lines, "  "+pkg+"@"+v)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
