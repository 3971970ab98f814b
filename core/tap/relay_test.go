package tap

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"syscall"
)

// relayMain is the floor a stdio tap is measured against in
// BenchmarkTapEcho (TAP_TEST_MAIN=relay): a bare relay that starts
// the command and copies its stdin and stdout with plain blocking
// read(2) and write(2), one goroutine per direction, nothing recorded,
// stderr inherited. What it adds to a call is the cost of the two extra
// pipe hops themselves.
func relayMain(args []string) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "relay: no command")
		return 2
	}
	if p := os.Getenv("TAP_RELAY_CPUPROFILE"); p != "" { // where the floor's CPU goes
		if f, err := os.Create(p); err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	inR, inW, err := os.Pipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 126
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 126
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 126
	}
	inR.Close()
	outW.Close()
	// Fd switches the pipes to blocking mode; the copies below bypass
	// the runtime's poller altogether.
	toServer, fromServer := int(inW.Fd()), int(outR.Fd())
	go func() {
		relayCopy(toServer, int(os.Stdin.Fd()))
		inW.Close()
	}()
	go relayCopy(int(os.Stdout.Fd()), fromServer)
	err = cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return 0
}

// relayCopy copies src to dst until src ends or dst fails.
func relayCopy(dst, src int) {
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(src, buf)
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 {
			return
		}
		for b := buf[:n]; len(b) > 0; {
			w, err := syscall.Write(dst, b)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				return
			}
			b = b[w:]
		}
	}
}
