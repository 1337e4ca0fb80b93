//go:build unix

package hook

import (
	"os"
	"syscall"
)

// mapFile maps f's first size bytes into memory, read-only.
func mapFile(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(data []byte) { syscall.Munmap(data) }
