package table

import (
	"bytes"
	"testing"
)

func TestColourfulNotForFiles(t *testing.T) {
	var b bytes.Buffer
	if Colourful(&b) {
		t.Error("Colourful(buffer) = true")
	}
}
