package checks

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// shell is the sh that runs checks: sh on PATH; on Windows, where sh is on
// PATH only inside Git Bash, Git for Windows' own sh.exe where it lives.
func shell() (string, error) {
	if _, err := exec.LookPath("sh"); err == nil || runtime.GOOS != "windows" {
		return "sh", nil
	}
	if p := gitSh(os.Getenv, exec.LookPath, gitExecPath); p != "" {
		return p, nil
	}
	return "", errors.New(noShell)
}

// gitSh is Git for Windows' sh.exe: beside the git on PATH, under the
// folder git --exec-path names, or in the folders its installer uses; ""
// when there is none.
func gitSh(getenv func(string) string, lookPath func(string) (string, error), execPath func() string) string {
	var roots []string
	if git, err := lookPath("git"); err == nil {
		// <root>\cmd\git.exe, <root>\bin\git.exe, <root>\mingw64\bin\git.exe
		dir := filepath.Dir(git)
		roots = append(roots, filepath.Dir(dir), filepath.Dir(filepath.Dir(dir)))
		if p := execPath(); p != "" {
			// <root>\mingw64\libexec\git-core
			roots = append(roots, filepath.Dir(filepath.Dir(filepath.Dir(filepath.FromSlash(p)))))
		}
	}
	for _, v := range []string{"ProgramW6432", "ProgramFiles", "ProgramFiles(x86)"} {
		if d := getenv(v); d != "" {
			roots = append(roots, filepath.Join(d, "Git"))
		}
	}
	if d := getenv("LOCALAPPDATA"); d != "" {
		roots = append(roots, filepath.Join(d, "Programs", "Git"))
	}
	if d := getenv("USERPROFILE"); d != "" {
		roots = append(roots, filepath.Join(d, "scoop", "apps", "git", "current"))
	}
	for _, root := range roots {
		for _, sh := range []string{filepath.Join(root, "bin", "sh.exe"), filepath.Join(root, "usr", "bin", "sh.exe")} {
			if fi, err := os.Stat(sh); err == nil && fi.Mode().IsRegular() {
				return sh
			}
		}
	}
	return ""
}

// gitExecPath is what git --exec-path says, "" when it says nothing.
func gitExecPath() string {
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
