package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkParse parses states as tools write them: compact, and indented.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{20, 10_000} {
		compact := stateJSON(n)
		var indented bytes.Buffer
		must(b, json.Indent(&indented, compact, "", "  "))
		for _, layout := range []struct {
			name string
			data []byte
		}{{"compact", compact}, {"indented", indented.Bytes()}} {
			b.Run(fmt.Sprintf("criteria=%d/%s", n, layout.name), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(layout.data)))
				for b.Loop() {
					if p := hope.Read(layout.data).Problems; p != nil {
						b.Fatal(p)
					}
				}
			})
		}
	}
}

func stateJSON(n int) []byte {
	criteria := make([]string, n)
	status := map[string]any{}
	for i := range criteria {
		criteria[i] = fmt.Sprintf("criterion %d: the export command handles case %d as the spec says", i, i)
		status[criteria[i]] = map[string]any{"met": i%2 == 0, "verification": "execution output"}
	}
	data, _ := json.Marshal(map[string]any{
		"spec": "add a --json flag", "criteria": criteria, "criteriaStatus": status,
		"iteration": 3, "maxIterations": 10, "circuitBreaker": map[string]any{"stuckCount": 0},
		"steps": []string{"a", "b"}, "remainingSteps": []string{"b"},
	})
	return data
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
