package person

import (
	"encoding/binary"
	"unicode/utf16"

	"golang.org/x/sys/windows"
)

// ptyPipe reports whether fd is a pipe named as an MSYS or Cygwin pty's.
func ptyPipe(fd uintptr) bool {
	h := windows.Handle(fd)
	if t, err := windows.GetFileType(h); err != nil || t != windows.FILE_TYPE_PIPE {
		return false
	}
	// FILE_NAME_INFO: the name's length in bytes, then the name in UTF-16.
	buf := make([]byte, 4+2*windows.MAX_PATH)
	if err := windows.GetFileInformationByHandleEx(h, windows.FileNameInfo, &buf[0], uint32(len(buf))); err != nil {
		return false
	}
	n := min(int(binary.LittleEndian.Uint32(buf)), len(buf)-4) / 2
	name := make([]uint16, n)
	for i := range name {
		name[i] = binary.LittleEndian.Uint16(buf[4+2*i:])
	}
	return ptyName(string(utf16.Decode(name)))
}
