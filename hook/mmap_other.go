//go:build !unix

package hook

import (
	"errors"
	"os"
)

// mapFile is not done here: the state file is read instead.
func mapFile(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }

func unmapFile([]byte) {}
