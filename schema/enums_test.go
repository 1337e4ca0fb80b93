package schema

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestEnumsAreTheSchemas holds the Go enums to the schema file, the one
// source of a state's shape.
func TestEnumsAreTheSchemas(t *testing.T) {
	var s struct {
		Properties struct {
			Status struct{ Enum []string } `json:"status"`
		} `json:"properties"`
		Defs struct {
			CriterionStatus struct {
				Properties struct {
					Verification struct{ Enum []string } `json:"verification"`
				} `json:"properties"`
			} `json:"criterionStatus"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(hope.Schema, &s); err != nil {
		t.Fatal(err)
	}
	if got := s.Properties.Status.Enum; !slices.Equal(got, statuses) {
		t.Errorf("status: the schema says %q, Go %q", got, statuses)
	}
	if got := s.Defs.CriterionStatus.Properties.Verification.Enum; !slices.Equal(got, verifications) {
		t.Errorf("verification: the schema says %q, Go %q", got, verifications)
	}
}

// TestDialectEnumsAreTheSchemas holds each dialect's Go enums to its schema
// file.
func TestDialectEnumsAreTheSchemas(t *testing.T) {
	for _, c := range []struct {
		d       Dialect
		pointer []string
		enum    []string
	}{
		{loopController, []string{"properties", "state", "enum"}, lcStates},
		{orchestrator, []string{"properties", "currentPhase", "enum"}, orchestratorPhaseNames()},
		{orchestrator, []string{"properties", "subAgents", "items", "properties", "status", "enum"}, subAgentStatuses},
	} {
		var v any
		if err := json.Unmarshal(c.d.Schema, &v); err != nil {
			t.Fatal(err)
		}
		for _, name := range c.pointer {
			v = v.(map[string]any)[name]
		}
		var got []string
		for _, x := range v.([]any) {
			got = append(got, x.(string))
		}
		if !slices.Equal(got, c.enum) {
			t.Errorf("%s %v: the schema says %q, Go %q", c.d.Name, c.pointer, got, c.enum)
		}
	}
}

// TestSchemaIDs: each dialect's schema declares the ID it is registered
// under, so that no local path leaks into a message.
func TestSchemaIDs(t *testing.T) {
	for _, d := range Dialects {
		var s struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(d.Schema, &s); err != nil {
			t.Fatal(err)
		}
		if s.ID != d.ID {
			t.Errorf("%s: the schema's $id is %q, the table's %q", d.Name, s.ID, d.ID)
		}
	}
}
