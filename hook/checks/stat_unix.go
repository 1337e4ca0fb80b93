//go:build unix

package checks

import (
	"encoding/binary"
	"os"
	"syscall"
	"time"
)

// appendSys appends the change time, inode and device of a file.
func appendSys(b []byte, fi os.FileInfo) []byte {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return b
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(changed(fi).UnixNano()))
	b = binary.LittleEndian.AppendUint64(b, uint64(st.Ino))
	return binary.LittleEndian.AppendUint64(b, uint64(st.Dev))
}

// changed is a file's change time, which only the kernel sets.
func changed(fi os.FileInfo) time.Time {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fi.ModTime()
	}
	return ctime(st)
}
