//go:build !unix

package checks

import (
	"os"
	"time"
)

// appendSys: no change time or inode to add where the system keeps none.
func appendSys(b []byte, fi os.FileInfo) []byte { return b }

// changed is the modification time, where no change time is kept.
func changed(fi os.FileInfo) time.Time { return fi.ModTime() }
