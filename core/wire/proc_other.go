//go:build !unix

package wire

import (
	"os"
	"os/exec"
	"syscall"
)

func setGroup(cmd *exec.Cmd) {}

// signalGroup has no process groups to use here: it kills the process on
// SIGKILL and does nothing on gentler signals.
func signalGroup(pid int, sig syscall.Signal) error {
	if sig != syscall.SIGKILL {
		return nil
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
