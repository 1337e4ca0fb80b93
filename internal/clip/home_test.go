package clip

import (
	"testing"

	"github.com/loophook/loophook/internal/testhome"
)

// TestMain runs the package's tests in a home of their own.
func TestMain(m *testing.M) { testhome.Main(m) }
