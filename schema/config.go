package schema

import (
	_ "embed"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// ConfigSchema is the JSON Schema, draft 2020-12, of a person's
// .loophook.json (SPEC section 6), registered under ConfigID.
//
//go:embed config.schema.json
var ConfigSchema []byte

// ConfigID is ConfigSchema's $id.
const ConfigID = "https://loophook.dev/schema/config.json"

// durationPattern is the schema's duration pattern, compiled only for a
// file that has a duration: a hook call with none pays nothing for it.
var durationPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9]*[1-9][0-9]*(\.[0-9]+)?|0*\.[0-9]*[1-9][0-9]*)(ms|s|m|h)$`)
})

// ValidateConfig lists a decoded .loophook.json's problems against
// ConfigSchema as sorted "pointer: message" lines, as the schema library
// would (config_test.go holds it to it).
func ValidateConfig(doc any) []string {
	var v validator
	v.object(doc, "", func(obj map[string]any) {
		v.closed(obj, "", "checks", "budget")
		v.field(obj, "", "checks", func(x any, at string) {
			v.each(x, at, func(x any, at string) {
				v.object(x, at, func(c map[string]any) {
					v.closed(c, at, "name", "run", "criterion", "timeout", "exclusive")
					v.required(c, at, "name", "run")
					for _, name := range []string{"name", "run", "criterion"} {
						v.field(c, at, name, v.nonEmpty)
					}
					v.field(c, at, "timeout", v.duration)
					v.field(c, at, "exclusive", v.boolean)
				})
			})
		})
		v.field(obj, "", "budget", func(x any, at string) {
			v.object(x, at, func(b map[string]any) {
				v.closed(b, at, "tokens", "turns", "duration")
				v.field(b, at, "tokens", v.atLeast(1))
				v.field(b, at, "turns", v.atLeast(1))
				v.field(b, at, "duration", v.duration)
			})
		})
	})
	slices.Sort(v.problems)
	return v.problems
}

// closed reports the members an object has beyond names, as
// "additionalProperties": false does.
func (v *validator) closed(obj map[string]any, at string, names ...string) {
	var extra []string
	for name := range obj {
		if !slices.Contains(names, name) {
			extra = append(extra, name)
		}
	}
	if len(extra) == 0 {
		return
	}
	slices.Sort(extra)
	for i, name := range extra {
		extra[i] = quoteName(name)
	}
	v.fail(at, "additionalProperties %s not allowed", strings.Join(extra, ", "))
}

// nonEmpty is a string of at least one character, as "minLength": 1.
func (v *validator) nonEmpty(x any, at string) {
	if v.is(x, at, "string") && x.(string) == "" {
		v.fail(at, "length must be >= 1, got 0")
	}
}

// duration is a string matching the schema's duration pattern.
func (v *validator) duration(x any, at string) {
	if v.is(x, at, "string") && !durationPattern().MatchString(x.(string)) {
		v.fail(at, "does not match pattern %s", quoteName(durationPattern().String()))
	}
}
