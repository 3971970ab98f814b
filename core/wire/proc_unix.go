//go:build unix

package wire

import (
	"os/exec"
	"syscall"
)

// setGroup makes the command the leader of its own process group, so that
// stopping it also stops whatever it spawned, and (on Linux) has the
// kernel kill it when Spyglass dies without stopping it (see
// startLocked).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

// signalGroup sends sig to the process group led by pid.
func signalGroup(pid int, sig syscall.Signal) error {
	return syscall.Kill(-pid, sig)
}
