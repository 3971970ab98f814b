package wire

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledClientLeavesNoServer: when the process that started a stdio
// server is killed outright (SIGKILL: no Close, no signal handler), the
// kernel kills the server too (issue #11.2: a killed run never leaves
// the server behind). The client is the test binary in "spawner" mode;
// its server is the test binary in "noread" mode, which would otherwise
// wait forever.
func TestKilledClientLeavesNoServer(t *testing.T) {
	client := exec.Command(os.Args[0], "-test.run=^$")
	client.Env = append(os.Environ(), "WIRE_HELPER=spawner")
	stdout, err := client.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	client.Stderr = os.Stderr
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Process.Kill(); client.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the client did not report its server's PID: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || pid <= 0 {
		t.Fatalf("server PID %q: %v", line, err)
	}
	if !alive(pid) {
		t.Fatalf("server %d is not running before the client is killed", pid)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })

	if err := client.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	client.Wait()
	// The kernel delivers the death signal as the client's thread exits;
	// wait for the server to be gone, with a bound for a machine that
	// never delivers it.
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("server %d still runs 10 s after its client was killed", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive reports whether pid is a running process (a zombie that nobody
// reaped yet counts as gone).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}
