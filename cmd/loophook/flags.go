package main

import (
	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
)

// Flags shared by every command that evaluates a state.
var (
	stateFlag = &cli.StringFlag{Name: "state", Usage: "use `FILE` as the state instead of searching for .loop/state.json", EnvVars: []string{"LOOPHOOK_STATE"}}
	dirFlag   = &cli.StringFlag{Name: "dir", Usage: "search for the state from `DIR` instead of the hook input's cwd", EnvVars: []string{"LOOPHOOK_DIR"}}
)

func evalFlags() []cli.Flag {
	return []cli.Flag{
		stateFlag,
		dirFlag,
		&cli.IntFlag{Name: "stuck-limit", Value: criteria.DefaultStuckLimit, Usage: "let the agent stop once circuitBreaker.stuckCount reaches `N`", EnvVars: []string{"LOOPHOOK_STUCK_LIMIT"}},
		&cli.IntFlag{Name: "max-iterations", Value: criteria.DefaultMaxIterations, Usage: "iteration limit `N` for states that set no maxIterations", EnvVars: []string{"LOOPHOOK_MAX_ITERATIONS"}},
		&cli.IntFlag{Name: "guard-limit", Value: criteria.DefaultGuardLimit, Usage: "let the agent stop after `N` stops in a row with no new progress in the state", EnvVars: []string{"LOOPHOOK_GUARD_LIMIT"}},
		&cli.IntFlag{Name: "max-continuations", Value: criteria.DefaultMaxContinuations, Usage: "let the agent stop after `N` stops in a row that kept it working, whatever its progress (0: no limit)", EnvVars: []string{"LOOPHOOK_MAX_CONTINUATIONS"}},
		&cli.StringFlag{Name: "on-invalid", Value: "block", Usage: "`block` (keep the agent working until it repairs the state) or allow", EnvVars: []string{"LOOPHOOK_ON_INVALID"}},
		&cli.BoolFlag{Name: "require-marker", Usage: "also require <loop-complete> in the agent's last message", EnvVars: []string{"LOOPHOOK_REQUIRE_MARKER"}},
	}
}

var protocolFlag = &cli.StringFlag{Name: "protocol", Value: "ok", Usage: "answer as `ok` (strict {ok, reason}) or claude (what Claude Code obeys)", EnvVars: []string{"LOOPHOOK_PROTOCOL"}}

// flagValues is where options reads flags: a *cli.Context, or the flag set
// of the hooks' fast path.
type flagValues interface {
	String(name string) string
	Int(name string) int
	Bool(name string) bool
}

// options turns the flags into hook options, refusing values that make no sense.
func options(c flagValues) (hook.Options, error) {
	o := hook.Options{
		StatePath: c.String("state"),
		Dir:       c.String("dir"),
		Limits: criteria.Limits{
			StuckLimit:       c.Int("stuck-limit"),
			MaxIterations:    c.Int("max-iterations"),
			GuardLimit:       c.Int("guard-limit"),
			MaxContinuations: c.Int("max-continuations"),
			RequireMarker:    c.Bool("require-marker"),
		},
		Host: hook.Hosts[0],
	}
	for _, f := range []string{"stuck-limit", "max-iterations", "guard-limit"} {
		if c.Int(f) < 1 {
			return o, fail("", msgAtLeastOne, f, c.Int(f))
		}
	}
	if n := c.Int("max-continuations"); n < 0 {
		return o, fail("", msgAtLeastZero, "max-continuations", n)
	}
	switch c.String("on-invalid") {
	case "block":
	case "allow":
		o.Limits.AllowInvalid = true
	default:
		return o, fail("", msgOnInvalid, c.String("on-invalid"))
	}
	if name := c.String("protocol"); name != "" {
		h, err := hook.LookupHost(name)
		if err != nil {
			return o, fail("", msgProtocol, err)
		}
		o.Host = h
	}
	return o, nil
}
