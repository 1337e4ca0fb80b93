package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/schema"
)

// The examples the walks start from, one per dialect.
var walkExamples = []struct{ dialect, path string }{
	{"hope", "../schema/example.json"},
	{"on-loop", "../schema/examples/on-loop/.on-loop/sessions/20260426_143052_user-management-api/state.json"},
	{"loop-controller", "../schema/examples/loop-controller/domain-memory/work-orders/loop-state.json"},
	{"orchestrator", "../schema/examples/orchestrator/loop-state.json"},
}

// The edits of a walk, one per byte: the byte's low three bits pick the
// edit, the rest where it applies.
const (
	editDrop     = iota // drop a member or an item anywhere
	editRename          // rename a key, or a string item, anywhere
	editLayout          // write the same document laid out otherwise
	editRestamp         // give every timestamp another value
	editProgress        // real progress toward the loop's end
	editProgress2
	editLayout2
	editRestamp2
)

// FuzzStateWalk walks a dialect's example through a sequence of edits, a
// stop after each, as an adversarial agent would, and holds the hook to
// its two promises (issue 22): no walk ends complete while a criterion of
// the loop's contract (every criterion seen since the contract began) is
// unmet or gone, and no walk of only layout changes and restamps keeps the
// agent working past the guard limit.
func FuzzStateWalk(f *testing.F) {
	for d := range walkExamples {
		f.Add(uint8(d), []byte{editProgress, editDrop, editProgress, editProgress, editRestamp, editProgress, editProgress, editProgress, editProgress, editProgress, editProgress, editProgress})
		f.Add(uint8(d), []byte{editLayout, editRestamp, editLayout2, editRestamp2, editLayout})
		f.Add(uint8(d), []byte{editDrop | 8, editProgress, editRename | 16, editProgress, editDrop | 40, editProgress, editProgress, editProgress, editProgress, editProgress, editProgress, editProgress, editProgress})
	}
	f.Fuzz(func(t *testing.T, which uint8, edits []byte) {
		if len(edits) > 64 {
			edits = edits[:64]
		}
		ex := walkExamples[int(which)%len(walkExamples)]
		data, err := os.ReadFile(ex.path)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		state := filepath.Join(dir, "state.json")
		o := Options{Host: host("ok"), Limits: criteria.DefaultLimits(), StatePath: state, Dialect: ex.dialect}
		onlyTimes := true
		seen := map[string]bool{} // the contract as the walk knows it
		blocked := 0              // stops in a row kept working with nothing but times and layout changed
		for i := -1; i < len(edits); i++ {
			layout := 0
			if i >= 0 {
				e := edits[i]
				switch e & 7 {
				case editDrop:
					drop(doc, int(e>>3))
				case editRename:
					rename(doc, int(e>>3))
				case editLayout, editLayout2:
					layout = int(e>>3)%3 + 1
				case editRestamp, editRestamp2:
					restamp(doc, i)
				default:
					progress(ex.dialect, doc)
				}
				switch e & 7 {
				case editLayout, editLayout2, editRestamp, editRestamp2:
				default:
					onlyTimes = false
				}
			}
			if err := os.WriteFile(state, laidOut(t, doc, layout), 0o644); err != nil {
				t.Fatal(err)
			}
			in := Input{SessionID: "walk", Cwd: dir, StopHookActive: i >= 0, StopKey: fmt.Sprint("stop ", i)}
			r := Evaluate(o, in, true)
			if r.Loaded != nil && r.Loaded.Loop != nil {
				for _, c := range r.Loaded.Loop.Criteria {
					seen[c.Name] = true
				}
			}
			if r.Rule == criteria.RuleComplete {
				met := map[string]bool{}
				for _, c := range r.Loaded.Loop.Criteria {
					met[c.Name] = c.Met
				}
				for _, n := range r.Loaded.Loop.MetUnlisted {
					met[n] = true
				}
				for n := range seen {
					if !met[n] {
						t.Fatalf("%s, edit %d: complete with contract criterion %q unmet or gone\n%s", ex.dialect, i, n, laidOut(t, doc, 0))
					}
				}
				clear(seen) // the loop ended, and its contract with it
			}
			if onlyTimes && i >= 0 {
				if !r.OK {
					blocked++
				}
				if blocked >= o.Limits.GuardLimit {
					t.Fatalf("%s: %d stops kept working with only layout and times changed: %+v", ex.dialect, blocked, r.Verdict)
				}
			}
			if r.OK && i >= 0 {
				t.Logf("%s: stopped after edit %d by rule %s", ex.dialect, i, r.Rule)
				return // the agent stopped: the walk is over
			}
		}
	})
}

// laidOut writes doc compact (0) or in one of three other layouts.
func laidOut(t *testing.T, doc any, layout int) []byte {
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	switch layout {
	case 1:
		json.Indent(&b, data, "", "  ")
	case 2:
		json.Indent(&b, data, "\t", "\t")
		b.WriteString("\r\n")
	case 3:
		b.WriteString("\ufeff  ")
		json.Indent(&b, data, "", " ")
	default:
		return data
	}
	return b.Bytes()
}

// nodes calls visit with every object and array in v, in a fixed order.
func nodes(v any, visit func(any)) {
	switch x := v.(type) {
	case map[string]any:
		visit(x)
		for _, k := range slices.Sorted(mapKeys(x)) {
			nodes(x[k], visit)
		}
	case []any:
		visit(x)
		for _, item := range x {
			nodes(item, visit)
		}
	}
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// drop removes the n-th member or item of the document, counting every
// object's members and every array's items in order.
func drop(doc any, n int) {
	var parents []any
	nodes(doc, func(v any) { parents = append(parents, v) })
	for _, p := range parents {
		switch x := p.(type) {
		case map[string]any:
			keys := slices.Sorted(mapKeys(x))
			if n < len(keys) {
				delete(x, keys[n])
				return
			}
			n -= len(keys)
		case []any:
			if n < len(x) {
				// Arrays are shared with their parent: blank the item's
				// place by moving the rest down and leaving a shorter copy.
				replaceArray(doc, x, slices.Delete(slices.Clone(x), n, n+1))
				return
			}
			n -= len(x)
		}
	}
}

// rename renames the n-th key of the document, or its n-th string item.
func rename(doc any, n int) {
	var parents []any
	nodes(doc, func(v any) { parents = append(parents, v) })
	for _, p := range parents {
		switch x := p.(type) {
		case map[string]any:
			keys := slices.Sorted(mapKeys(x))
			if n < len(keys) {
				x[keys[n]+" (renamed)"] = x[keys[n]]
				delete(x, keys[n])
				return
			}
			n -= len(keys)
		case []any:
			for i, item := range x {
				if s, ok := item.(string); ok {
					if n == 0 {
						x[i] = s + " (renamed)"
						return
					}
					n--
				}
			}
		}
	}
}

// replaceArray puts next where old is in doc.
func replaceArray(doc any, old, next []any) {
	nodes(doc, func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, item := range x {
				if a, ok := item.([]any); ok && len(a) > 0 && len(old) > 0 && &a[0] == &old[0] {
					x[k] = next
				}
			}
		case []any:
			for i, item := range x {
				if a, ok := item.([]any); ok && len(a) > 0 && len(old) > 0 && &a[0] == &old[0] {
					x[i] = next
				}
			}
		}
	})
}

// restamp gives every date-time string, and every number under a key named
// timestamp, another value.
func restamp(doc any, step int) {
	stamp := fmt.Sprintf("2027-01-01T00:%02d:00Z", step%60)
	nodes(doc, func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, item := range x {
				if s, ok := item.(string); ok && schema.IsDateTime(s) {
					x[k] = stamp
				}
				if _, ok := item.(float64); ok && k == "timestamp" {
					x[k] = float64(1700000000000 + step)
				}
			}
		case []any:
			for i, item := range x {
				if s, ok := item.(string); ok && schema.IsDateTime(s) {
					x[i] = stamp
				}
			}
		}
	})
}

// progress makes one step of real progress toward the loop's end, as its
// loop system records it.
func progress(dialect string, doc any) {
	m, ok := doc.(map[string]any)
	if !ok {
		return
	}
	obj := func(parent map[string]any, key string) map[string]any {
		o, ok := parent[key].(map[string]any)
		if !ok {
			o = map[string]any{}
			parent[key] = o
		}
		return o
	}
	strings := func(v any) []string {
		var out []string
		for _, x := range asList(v) {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	switch dialect {
	case "hope":
		status := obj(m, "criteriaStatus")
		for _, name := range strings(m["criteria"]) {
			if e, ok := status[name].(map[string]any); !ok || e["met"] != true {
				status[name] = map[string]any{"met": true, "verification": "execution output"}
				return
			}
		}
		for name, e := range status {
			if e != true {
				if o, ok := e.(map[string]any); !ok || o["met"] != true || o["verification"] == "assumption" {
					status[name] = true
					return
				}
			}
		}
		m["exit_signal"], m["status"] = true, "complete"
	case "on-loop":
		phases := []string{"INIT", "SPEC", "PLAN", "CODE", "TEST", "SECURITY", "DOC", "BUILD", "REVIEW", "GIT"}
		phase, _ := m["phase"].(string)
		i := slices.Index(phases, phase)
		done := asList(m["phases_completed"])
		if i < 0 {
			m["phase"], m["phases_completed"] = "INIT", []any{}
			return
		}
		if !slices.Contains(strings(done), phase) {
			m["phases_completed"] = append(slices.Clone(done), phase)
		}
		if i+1 < len(phases) {
			m["phase"] = phases[i+1]
		} else {
			m["phase"] = "COMPLETE"
		}
	case "loop-controller":
		stages := obj(m, "stages")
		for _, s := range []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP"} {
			if obj(stages, s)["status"] != "complete" {
				obj(stages, s)["status"] = "complete"
				return
			}
		}
		caps := obj(m, "capabilities")
		caps["remaining"], caps["completed"], caps["total"] = []any{}, 1.0, 1.0
		for _, g := range asMap(m["gates"]) {
			if g, ok := g.(map[string]any); ok {
				g["status"], g["approved"] = "approved", true
			}
		}
		m["state"], m["failures"] = "COMPLETE", map[string]any{}
	case "orchestrator":
		scope := obj(m, "scopeDiscovery")
		if _, ok := scope["completedAt"].(string); !ok {
			scope["completedAt"] = "2027-01-01T00:00:00Z"
			return
		}
		done := strings(m["completedSystems"])
		for _, s := range asList(scope["systems"]) {
			if name, _ := asMap(s)["name"].(string); !slices.Contains(done, name) {
				m["completedSystems"] = append(asList(m["completedSystems"]), name)
				return
			}
		}
		for _, a := range asList(m["subAgents"]) {
			if a, ok := a.(map[string]any); ok {
				a["status"] = "completed"
			}
		}
		obj(m, "gates")["pending"] = []any{}
		delete(m, "sessionHandoff")
		m["currentPhase"] = "COMPLETE"
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
