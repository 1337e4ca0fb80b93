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
