package main

import (
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/schema"
)

// Flags shared by every command that evaluates a state.
var (
	stateFlag = &cli.StringFlag{Name: "state", Usage: "use `FILE` as the state instead of searching for one; its content tells its dialect", EnvVars: []string{"LOOPHOOK_STATE"}}
	dirFlag   = &cli.StringFlag{Name: "dir", Usage: "search for the state from `DIR` instead of the host's project directory or the hook input's cwd", EnvVars: []string{"LOOPHOOK_DIR"}}
	// dialectFlag's usage names the dialects from the table.
	dialectFlag = &cli.StringFlag{Name: "dialect", Usage: "read the state as dialect `D` (" + strings.Join(schema.Names(), ", ") + ") and look only for its file; default: each in turn, and a --state file's own", EnvVars: []string{"LOOPHOOK_DIALECT"}}
)

func evalFlags() []cli.Flag {
	return []cli.Flag{
		stateFlag,
		dirFlag,
		dialectFlag,
		&cli.IntFlag{Name: "stuck-limit", Value: criteria.DefaultStuckLimit, Usage: "let the agent stop once circuitBreaker.stuckCount reaches `N`", EnvVars: []string{"LOOPHOOK_STUCK_LIMIT"}},
		&cli.IntFlag{Name: "max-iterations", Value: criteria.DefaultMaxIterations, Usage: "iteration limit `N` for states that set no maxIterations", EnvVars: []string{"LOOPHOOK_MAX_ITERATIONS"}},
		&cli.IntFlag{Name: "guard-limit", Value: criteria.DefaultGuardLimit, Usage: "let the agent stop after `N` stops in a row with no new progress in the state", EnvVars: []string{"LOOPHOOK_GUARD_LIMIT"}},
		&cli.Float64Flag{Name: "budget", Value: criteria.DefaultBudget, Usage: "budget `USD` for loops that record a cost but set no budget (0: none)", EnvVars: []string{"LOOPHOOK_BUDGET"}},
		&cli.IntFlag{Name: "iteration-ceiling", Value: criteria.DefaultIterationCeiling, Usage: "hold a state's own maxIterations to at most `N` (0: no ceiling)", EnvVars: []string{"LOOPHOOK_ITERATION_CEILING"}},
		&cli.Float64Flag{Name: "budget-ceiling", Value: criteria.DefaultBudgetCeiling, Usage: "hold a state's own budget to at most `USD` (0: no ceiling)", EnvVars: []string{"LOOPHOOK_BUDGET_CEILING"}},
		&cli.IntFlag{Name: "max-continuations", Value: criteria.DefaultMaxContinuations, Usage: "let the agent stop after `N` stops in a row that kept it working, whatever its progress (0: no limit)", EnvVars: []string{"LOOPHOOK_MAX_CONTINUATIONS"}},
		&cli.StringFlag{Name: "on-invalid", Value: "block", Usage: "`block` (keep the agent working until it repairs the state) or allow", EnvVars: []string{"LOOPHOOK_ON_INVALID"}},
		&cli.BoolFlag{Name: "require-marker", Usage: "also require <loop-complete> in the agent's last message", EnvVars: []string{"LOOPHOOK_REQUIRE_MARKER"}},
	}
}

// protocolFlag's usage names the hosts from the table.
var protocolFlag = &cli.StringFlag{Name: "protocol", Value: host.Strict().Name, Usage: "answer as `" + host.Strict().Name + "` (strict {ok, reason}), or as the host obeys: " + host.OrList(host.InstallableNames()), EnvVars: []string{"LOOPHOOK_PROTOCOL"}}

// flagValues is where options reads flags: a *cli.Context, or the flag set
// of the hooks' fast path.
type flagValues interface {
	String(name string) string
	Int(name string) int
	Float64(name string) float64
	Bool(name string) bool
}

// commandOptions are the options of a person's command that reads a loop
// as the hook does (eval, status): flags only, no arguments.
func commandOptions(c *cli.Context) (hook.Options, error) {
	if err := noArguments(c); err != nil {
		return hook.Options{}, err
	}
	return options(c)
}

// options turns the flags into hook options, refusing values that make no sense.
func options(c flagValues) (hook.Options, error) {
	o := hook.Options{
		StatePath: c.String("state"),
		Dir:       c.String("dir"),
		Dialect:   c.String("dialect"),
		Limits: criteria.Limits{
			StuckLimit:       c.Int("stuck-limit"),
			MaxIterations:    c.Int("max-iterations"),
			GuardLimit:       c.Int("guard-limit"),
			MaxContinuations: c.Int("max-continuations"),
			RequireMarker:    c.Bool("require-marker"),

			Budget:           c.Float64("budget"),
			IterationCeiling: c.Int("iteration-ceiling"),
			BudgetCeiling:    c.Float64("budget-ceiling"),
		},
		Host: host.Strict().Wire,
	}
	for _, f := range []string{"stuck-limit", "max-iterations", "guard-limit"} {
		if c.Int(f) < 1 {
			return o, fail("", msgAtLeastOne, dashed(f), c.Int(f))
		}
	}
	if n := c.Int("max-continuations"); n < 0 {
		return o, fail("", msgAtLeastZero, dashed("max-continuations"), strconv.Itoa(n))
	}
	if n := c.Int("iteration-ceiling"); n < 0 {
		return o, fail("", msgAtLeastZero, dashed("iteration-ceiling"), strconv.Itoa(n))
	}
	for _, f := range []string{"budget", "budget-ceiling"} {
		if v := c.Float64(f); !(v >= 0) || math.IsInf(v, 0) {
			return o, fail("", msgAtLeastZero, dashed(f), number(v))
		}
	}
	if name := c.String("dialect"); name != "" {
		if _, err := schema.Lookup(name); err != nil {
			return o, fail("", msgDialect, err)
		}
	}
	switch c.String("on-invalid") {
	case "block":
	case "allow":
		o.Limits.AllowInvalid = true
	default:
		return o, fail("", msgOnInvalid, c.String("on-invalid"))
	}
	if name := c.String("protocol"); name != "" {
		h, err := host.Lookup(name)
		if err != nil {
			return o, fail("", msgProtocol, err)
		}
		o.Host = h.Wire
	}
	return o, nil
}

// number prints a JSON number as a person writes it: 3, not 3e+00.
func number(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
