package wire

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Process is a stdio server process whose pipes the caller reads and
// writes itself, byte for byte: the tap (core/tap) passes them through
// unchanged. It is started and stopped the way Stdio does it: its own
// process group, the parent-death signal on Linux, and Stop's ladder
// (close stdin, wait, SIGTERM, wait, SIGKILL). Dir and Env of the config
// apply; Conn and MaxMessageSize are not used.
type Process struct {
	// Stdin is the server's standard input, Stdout and Stderr its outputs.
	// Closing Stdin sends the server EOF.
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	Stderr io.ReadCloser

	cfg    StdioConfig
	pid    int
	exited chan struct{}
	exit   *ExitError

	stopOnce sync.Once
	stopErr  error
}

// StartProcess spawns cfg's command. A command that cannot be started
// returns a *StartError (errors.Is(err, ErrCommandNotFound) when it does
// not exist).
func StartProcess(cfg StdioConfig) (*Process, error) {
	if cfg.StopWait <= 0 {
		cfg.StopWait = 500 * time.Millisecond
	}
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = append(os.Environ(), cfg.Env...)
	cmd.Dir = cfg.Dir
	setGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, &StartError{Command: cfg.Command, Err: err}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, &StartError{Command: cfg.Command, Err: err}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, &StartError{Command: cfg.Command, Err: err}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	p := &Process{Stdin: inW, Stdout: outR, Stderr: errR, cfg: cfg, exited: make(chan struct{})}
	if err := startLocked(cmd, func() {
		werr := cmd.Wait()
		p.exit = exitStatus(cmd.ProcessState, werr)
		close(p.exited)
	}); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		notFound := errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist)
		return nil, &StartError{Command: cfg.Command, Err: err, notFound: notFound}
	}
	closeAll(inR, outW, errW) // the child holds its own copies
	p.pid = cmd.Process.Pid
	return p, nil
}

// Pid returns the server's process id.
func (p *Process) Pid() int { return p.pid }

// Exited is closed once the process has been reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Wait waits for the process to end and returns how it ended.
func (p *Process) Wait() *ExitError {
	<-p.exited
	return p.exit
}

// Stop ends the server the way Stdio.Close does: it closes stdin, waits
// StopWait for the process to exit, sends SIGTERM to its process group,
// waits again, then SIGKILL; whatever the server left in its group gets
// SIGTERM. It returns once the process is gone (or could not be killed).
// It is safe to call more than once and after the process exited.
func (p *Process) Stop() error {
	p.stopOnce.Do(func() {
		p.Stdin.Close()
		if !waitChan(p.exited, p.cfg.StopWait) {
			signalGroup(p.pid, syscall.SIGTERM)
			if !waitChan(p.exited, p.cfg.StopWait) {
				if err := signalGroup(p.pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
					p.stopErr = fmt.Errorf("wire: kill process group %d: %w", p.pid, err)
				}
				if !waitChan(p.exited, 5*time.Second) && p.stopErr == nil {
					p.stopErr = fmt.Errorf("wire: process %d did not exit after SIGKILL", p.pid)
				}
			}
		}
		if signalGroup(p.pid, 0) == nil {
			signalGroup(p.pid, syscall.SIGTERM)
		}
	})
	return p.stopErr
}
