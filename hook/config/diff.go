package config

import (
	"fmt"
	"strconv"
	"time"
)

// Diff says, one line each, what now changes from was: checks added,
// removed or changed, and budget limits; either may be nil (no file). Two
// versions that differ only in comments or layout have one line saying so.
func Diff(was, now *Config) []string {
	if was == nil {
		was = &Config{}
	}
	if now == nil {
		now = &Config{}
	}
	var out []string
	byName := func(cs []Check) map[string]Check {
		m := make(map[string]Check, len(cs))
		for _, c := range cs {
			if _, ok := m[c.Name]; !ok {
				m[c.Name] = c
			}
		}
		return m
	}
	old, cur := byName(was.Checks), byName(now.Checks)
	for _, c := range was.Checks {
		n, ok := cur[c.Name]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf(diffRemoved, strconv.Quote(c.Name), strconv.Quote(c.Run)))
		case n != c:
			out = append(out, fmt.Sprintf(diffChanged, strconv.Quote(c.Name), describe(c), describe(n)))
		}
	}
	for _, c := range now.Checks {
		if _, ok := old[c.Name]; !ok {
			out = append(out, fmt.Sprintf(diffAdded, strconv.Quote(c.Name), strconv.Quote(c.Run)))
		}
	}
	limit := func(name string, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf(diffBudget, name, a, b))
		}
	}
	limit("tokens", count(was.Budget.Tokens), count(now.Budget.Tokens))
	limit("turns", count(int64(was.Budget.Turns)), count(int64(now.Budget.Turns)))
	limit("duration", span(was.Budget.Duration), span(now.Budget.Duration))
	return out
}

// describe is a check's command, what it guards and whether it runs
// alone, for a change line.
func describe(c Check) string {
	s := fmt.Sprintf(diffCheck, strconv.Quote(c.Run), c.Timeout)
	if c.Criterion != "" {
		s += fmt.Sprintf(diffGuards, strconv.Quote(c.Criterion))
	}
	if c.Exclusive {
		s += diffExclusive
	}
	return s
}

func count(n int64) string {
	if n == 0 {
		return diffNoLimit
	}
	return strconv.FormatInt(n, 10)
}

func span(d time.Duration) string {
	if d == 0 {
		return diffNoLimit
	}
	return d.String()
}
