package appsock

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestHandOver(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run", "app.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got := make(chan Message, 1)
	go l.Serve(func(m Message) (Reply, func(io.Reader)) {
		got <- m
		return Reply{OK: true}, nil
	})
	for _, p := range []struct {
		name string
		want os.FileMode
	}{{filepath.Dir(path), 0o700}, {path, 0o600}} {
		fi, err := os.Stat(p.name)
		if err != nil || fi.Mode().Perm() != p.want {
			t.Fatalf("%s: %v %v, want mode %v (this user only)", p.name, fi.Mode().Perm(), err, p.want)
		}
	}

	if _, err := Listen(path); !errors.Is(err, ErrRunning) {
		t.Fatalf("a second Listen: %v, want ErrRunning", err)
	}
	rep, err := Send(path, Message{Kind: "open", Args: []string{"--server", "x"}, Dir: "/w"}, 5*time.Second)
	if err != nil || !rep.OK {
		t.Fatalf("Send: %+v %v", rep, err)
	}
	if m := <-got; m.Kind != "open" || len(m.Args) != 2 || m.Args[1] != "x" || m.Dir != "/w" {
		t.Fatalf("the app received %+v", m)
	}
}

// TestStaleSocket: a socket left by a crashed run (the file is there,
// nobody listens) is replaced.
func TestStaleSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the stale socket is not there: %v", err)
	}
	if _, err := Send(path, Message{Kind: "open"}, time.Second); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Send to a stale socket: %v, want ErrNotRunning", err)
	}
	l, err := Listen(path)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	l.Close()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("Close left the socket: %v", err)
	}
}

func TestGarbageIsAnswered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go l.Serve(func(Message) (Reply, func(io.Reader)) { t.Error("garbage handled as a message"); return Reply{}, nil })
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("not json\n"))
	buf := make([]byte, 256)
	n, _ := c.Read(buf)
	if want := `{"error":"not a Spyglass message`; len(buf[:n]) < len(want) || string(buf[:len(want)]) != want {
		t.Fatalf("answered %q", buf[:n])
	}
}

// TestStream: a handler that streams reads what the client sends after the
// reply, to the end.
func TestStream(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	lines := make(chan []string, 1)
	go l.Serve(func(m Message) (Reply, func(io.Reader)) {
		return Reply{OK: true}, func(r io.Reader) {
			var got []string
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				got = append(got, sc.Text())
			}
			lines <- got
		}
	})
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte(`{"kind":"feed"}` + "\n"))
	rep, _ := bufio.NewReader(c).ReadString('\n')
	if rep != `{"ok":true}`+"\n" {
		t.Fatalf("reply %q", rep)
	}
	c.Write([]byte("one\ntwo\n"))
	c.Close()
	if got := <-lines; len(got) != 2 || got[0] != "one" || got[1] != "two" {
		t.Fatalf("streamed %q", got)
	}
}
