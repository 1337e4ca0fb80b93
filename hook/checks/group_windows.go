package checks

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// group is a check's job object: every process the check starts is in it,
// and terminating the job ends them all, by its handle, never by a pid.
type group struct {
	mu  sync.Mutex
	job windows.Handle
}

// ownGroup starts the check suspended, so that it is in its job before
// it can start anything.
func ownGroup(cmd *exec.Cmd) *group {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED}
	return &group{}
}

var ntResumeProcess = windows.NewLazySystemDLL("ntdll.dll").NewProc("NtResumeProcess")

// started puts the suspended shell in a new job, which ends with
// loophook's last handle to it, and lets it run.
func (g *group) started(p *os.Process) error {
	// The pid names the shell: it is suspended, and not reaped.
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|windows.PROCESS_SUSPEND_RESUME, false, uint32(p.Pid))
	if err != nil {
		p.Kill()
		return err
	}
	defer windows.CloseHandle(h)
	job, err := windows.CreateJobObject(nil, nil)
	if err == nil {
		info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
		info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
		_, err = windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
		if err == nil {
			err = windows.AssignProcessToJobObject(job, h)
		}
		if err != nil {
			windows.CloseHandle(job)
		}
	}
	if err != nil {
		windows.TerminateProcess(h, 1)
		return err
	}
	g.mu.Lock()
	g.job = job
	g.mu.Unlock()
	if r, _, _ := ntResumeProcess.Call(uintptr(h)); r != 0 {
		g.kill()
		return windows.NTStatus(r)
	}
	return nil
}

// kill ends every process in the job.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		windows.TerminateJobObject(g.job, 1)
	}
}

// wait waits for the shell, then ends what it left running.
func (g *group) wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	g.kill()
	return err
}

func (g *group) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		windows.CloseHandle(g.job)
		g.job = 0
	}
}
