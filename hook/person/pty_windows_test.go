package person

import (
	"os"
	"testing"

	"golang.org/x/sys/windows"
)

// TestMinttyIsATerminal: a program whose stdin is the pipe Git Bash's mintty
// hands it, an MSYS pty's, has a terminal; another pipe is not one.
func TestMinttyIsATerminal(t *testing.T) {
	for name, want := range map[string]bool{
		`\\.\pipe\msys-1888ae32e00d56aa-pty0-from-master`: true,
		`\\.\pipe\loophook-test-not-a-pty`:                false,
	} {
		p, err := windows.UTF16PtrFromString(name)
		if err != nil {
			t.Fatal(err)
		}
		server, err := windows.CreateNamedPipe(p, windows.PIPE_ACCESS_OUTBOUND, windows.PIPE_TYPE_BYTE, 1, 512, 512, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		client, err := windows.CreateFile(p, windows.GENERIC_READ, 0, nil, windows.OPEN_EXISTING, 0, 0)
		if err != nil {
			windows.CloseHandle(server)
			t.Fatal(err)
		}
		f := os.NewFile(uintptr(client), name)
		if got := Terminal(f); got != want {
			t.Errorf("%s: Terminal = %v, want %v", name, got, want)
		}
		f.Close()
		windows.CloseHandle(server)
	}
}
