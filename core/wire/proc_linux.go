package wire

import "syscall"

// setDeathSignal has the kernel SIGKILL the server when the thread that
// started it ends, as it does when Spyglass is killed (SIGKILL, a crash),
// so that no server is left behind. The thread is kept for the server's
// whole life: startLocked.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
