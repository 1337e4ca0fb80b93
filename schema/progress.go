package schema

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// progress fingerprints the values at the dotted paths in doc, with every
// timestamp left out, so that a state that only restamps its times has made
// no progress (SPEC rule 9). A missing path counts as a value of its own.
func progress(doc any, paths []string) string {
	h := fnv.New64a()
	for _, p := range paths {
		at(doc, strings.Split(p, "."), p, func(where string, v any) {
			b, _ := json.Marshal(untimed(v)) // map keys come out sorted
			fmt.Fprintf(h, "%s=%s\n", where, b)
		})
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// at calls found with each value at path below v; "*" is every member of an
// object, in name order, or every item of an array.
func at(v any, path []string, where string, found func(where string, v any)) {
	if len(path) == 0 {
		found(where, v)
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if path[0] != "*" {
			if m, ok := x[path[0]]; ok {
				at(m, path[1:], where, found)
			}
			return
		}
		names := make([]string, 0, len(x))
		for name := range x {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			at(x[name], path[1:], where+"/"+name, found)
		}
	case []any:
		if path[0] == "*" {
			for i, item := range x {
				at(item, path[1:], fmt.Sprintf("%s/%d", where, i), found)
			}
		}
	}
}

// untimed is v without the members that are timestamps, at any depth.
func untimed(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, m := range x {
			if !timestamp(k) {
				out[k] = untimed(m)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = untimed(item)
		}
		return out
	}
	return v
}

// timestamp reports whether a member's name says it holds a time, which the
// runaway guard never counts as progress: timestamp, or a name ending in
// At, _at or Heartbeat.
func timestamp(name string) bool {
	return name == "timestamp" || strings.HasSuffix(name, "At") || strings.HasSuffix(name, "_at") || strings.HasSuffix(name, "Heartbeat")
}
