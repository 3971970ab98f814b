package catalog

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sum(t *testing.T, path string) [32]byte {
	t.Helper()
	return sha256.Sum256([]byte(readFile(t, path)))
}

func TestSeeding(t *testing.T) {
	t.Run("missing catalog is created with the seed", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "deep", "er", "mcp.json")
		c, created, err := LoadOrCreate(path)
		if err != nil || !created {
			t.Fatal(created, err)
		}
		if got := readFile(t, path); got != Seed {
			t.Fatalf("seed written:\n%s", got)
		}
		want := []string{DemoServerName, "filesystem-server-default", "everything-server-default"}
		if strings.Join(c.Names(), ",") != strings.Join(want, ",") {
			t.Fatal(c.Names())
		}
		demo, _ := c.Get(DemoServerName)
		if demo.Command != "spyglass" || len(demo.Args) != 1 || demo.Args[0] != "--demo-server" {
			t.Fatalf("demo entry %+v", demo)
		}
		if c.ReadOnly() {
			t.Fatal("a catalog must be writable")
		}
		if runtime.GOOS != "windows" {
			if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
				t.Fatalf("mode %v", st.Mode())
			}
		}
	})
	t.Run("existing catalog is never re-seeded", func(t *testing.T) {
		for _, doc := range []string{`{"mcpServers": {}}`, `{}`, `{"mcpServers": {"mine": {"command": "x"}}}`} {
			path := filepath.Join(t.TempDir(), "mcp.json")
			writeFile(t, path, doc)
			c, created, err := LoadOrCreate(path)
			if err != nil || created {
				t.Fatal(created, err)
			}
			if readFile(t, path) != doc || strings.Contains(strings.Join(c.Names(), ","), DemoServerName) {
				t.Fatalf("%q was re-seeded", doc)
			}
		}
	})
	t.Run("malformed catalog is not replaced", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mcp.json")
		writeFile(t, path, "{oops")
		if _, _, err := LoadOrCreate(path); !errors.Is(err, ErrSyntax) {
			t.Fatal(err)
		}
		if readFile(t, path) != "{oops" {
			t.Fatal("malformed file changed")
		}
	})
	t.Run("same seed whichever runs first, even at once", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mcp.json")
		var wg sync.WaitGroup
		var mu sync.Mutex
		creators := 0
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, created, err := LoadOrCreate(path)
				if err != nil || c.Len() != 3 {
					t.Errorf("LoadOrCreate: %v", err)
				}
				if created {
					mu.Lock()
					creators++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if creators != 1 || readFile(t, path) != Seed {
			t.Fatalf("%d creators", creators)
		}
		leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".mcp.json.tmp-*"))
		if len(leftovers) > 0 {
			t.Fatalf("temp files left: %v", leftovers)
		}
	})
	t.Run("a read-only config is never seeded", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mcp.json")
		if _, err := LoadReadOnly(path); !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		src := &Source{Kind: SourceConfig, Path: path}
		if _, _, err := src.Open(); !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Fatal("config was created")
		}
	})
}

func TestConfigBytesNeverChange(t *testing.T) {
	docs := []string{
		Seed,
		`{"mcpServers": {"a": {"command": "x", "metadata": [{"key": "k", "value": "v"}], "oauth": {"clientSecret": "plain"}}}}`,
		`{"mcpServers": {"bad": {"type": "ws"}}}`,
	}
	for i, doc := range docs {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("config%d.json", i))
		writeFile(t, path, doc)
		before := sum(t, path)
		src := &Source{Kind: SourceConfig, Path: path}
		c, created, _ := src.Open()
		if c == nil || created || !c.ReadOnly() {
			t.Fatal("config not opened read-only")
		}
		c.Put("new", Server{Type: TypeStdio, Command: "x"})
		c.Delete("a")
		if err := c.Save(nil); !errors.Is(err, ErrReadOnly) {
			t.Fatalf("Save on a config: %v", err)
		}
		if err := Update(path+".other", nil, func(*Catalog) error { return nil }); err != nil {
			t.Fatal(err) // unrelated file, to show Update does not touch the config
		}
		if sum(t, path) != before {
			t.Fatal("config bytes changed")
		}
	}
}

func TestSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, path, Seed)
	st0, _ := os.Stat(path)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Save(nil); err != nil {
		t.Fatal(err)
	}
	st1, _ := os.Stat(path)
	if readFile(t, path) != Seed || !st1.ModTime().Equal(st0.ModTime()) {
		t.Fatal("saving an unchanged catalog wrote the file")
	}
	if err := c.Put("x", Server{Type: TypeStdio, Command: "y"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(nil); err != nil {
		t.Fatal(err)
	}
	c2, err := Load(path)
	if err != nil || c2.Len() != 4 {
		t.Fatal(err)
	}
	if !strings.HasPrefix(readFile(t, path), Seed[:len(Seed)-8]) {
		t.Fatalf("existing entries rewritten:\n%s", readFile(t, path))
	}
	// saving twice in a row is fine (the baseline moved)
	c.Delete("x")
	if err := c.Save(nil); err != nil {
		t.Fatal(err)
	}
	if readFile(t, path) != Seed {
		t.Fatalf("add then delete should give the seed back:\n%s", readFile(t, path))
	}
	if runtime.GOOS != "windows" {
		os.Chmod(path, 0o640)
		c.Put("y", Server{Type: TypeStdio, Command: "z"})
		if err := c.Save(nil); err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
			t.Fatalf("mode not kept: %v", st.Mode())
		}
	}
}

func TestSaveKeepsMemorySecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, path, `{"mcpServers": {"a": {"type": "http", "url": "https://h.example/mcp"}}}`)
	c, _ := Load(path)
	s, _ := c.Get("a")
	s.OAuth = &OAuth{ClientID: "id", ClientSecret: "mem"}
	c.Put("a", s)
	if err := c.Save(nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(readFile(t, path), "mem") {
		t.Fatal("secret written")
	}
	if s, _ := c.Get("a"); s.OAuth.ClientSecret != "mem" {
		t.Fatal("secret lost from memory after save")
	}
	if c.Changed() {
		t.Fatal("a memory-only secret makes the catalog look changed")
	}
}

func TestSaveSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "mcp.json")
	writeFile(t, real, `{"mcpServers": {}}`)
	link := filepath.Join(dir, "mcp.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	c, _ := Load(link)
	c.Put("a", Server{Type: TypeStdio, Command: "x"})
	if err := c.Save(nil); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("symlink replaced by a file")
	}
	if !strings.Contains(readFile(t, real), `"a"`) {
		t.Fatal("target not updated")
	}
}

func TestSaveCrashAtEveryStep(t *testing.T) {
	old := Seed
	for _, step := range Steps {
		t.Run(step.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "mcp.json")
			writeFile(t, path, old)
			c, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			c.Put("added", Server{Type: TypeHTTP, URL: "https://x.example/mcp"})
			newData := string(c.Bytes())
			err = c.Save(&WriteOptions{Hook: func(s Step) error {
				if s == step {
					return ErrSimulatedCrash
				}
				return nil
			}})
			if !errors.Is(err, ErrSimulatedCrash) {
				t.Fatalf("Save: %v", err)
			}
			// after the "crash", a fresh process reads the file
			got := readFile(t, path)
			if got != old && got != newData {
				t.Fatalf("torn file after a crash at %s:\n%s", step, got)
			}
			if step <= StepRename && got != old {
				t.Fatalf("crash before the rename left the new content")
			}
			c2, err := Load(path)
			if err != nil {
				t.Fatalf("file unreadable after a crash at %s: %v", step, err)
			}
			// and the next save works despite leftovers
			c2.Put("again", Server{Type: TypeStdio, Command: "x"})
			if err := c2.Save(nil); err != nil {
				t.Fatal(err)
			}
			if c3, err := Load(path); err != nil || c3.Find("again") < 0 {
				t.Fatal(err)
			}
		})
	}
}

// TestWriteAtomicRealErrorCleansUp: a save into a folder the user cannot
// write fails and leaves the file as it was. Root writes anywhere, so as
// root the test runs its body again in a copy of the test binary as the
// unprivileged user nobody (uid 65534), in a folder that user owns.
func TestWriteAtomicRealErrorCleansUp(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no read-only folders by mode on Windows")
	}
	dir := os.Getenv("SPYGLASS_TEST_READONLY_DIR")
	if dir == "" {
		dir = t.TempDir()
		path := filepath.Join(dir, "mcp.json")
		writeFile(t, path, "{}")
		if os.Geteuid() == 0 {
			runAsNobody(t, dir, "^TestWriteAtomicRealErrorCleansUp$")
			if readFile(t, path) != "{}" {
				t.Fatal("file changed")
			}
			return
		}
	}
	path := filepath.Join(dir, "mcp.json")
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	if err := WriteAtomic(path, []byte(`{"a":1}`), nil); err == nil {
		t.Fatal("write into a read-only folder succeeded")
	}
	if readFile(t, path) != "{}" {
		t.Fatal("file changed")
	}
}

// runAsNobody runs the tests matching run in a copy of this test binary as
// uid/gid 65534, with dir (handed over to that user) in
// SPYGLASS_TEST_READONLY_DIR, and fails t with the child's output when any
// of them fails.
func runAsNobody(t *testing.T, dir, run string) {
	t.Helper()
	const nobody = 65534
	bin := filepath.Join(t.TempDir(), "catalog.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Dir(bin), filepath.Dir(dir)} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chown(p, nobody, nobody)
	}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run="+run, "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SPYGLASS_TEST_READONLY_DIR="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("as uid %d: %v\n%s", nobody, err, out)
	}
}

func TestConcurrentWriterDetected(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, path, Seed)
	a, _ := Load(path)
	b, _ := Load(path)
	a.Put("from-a", Server{Type: TypeStdio, Command: "a"})
	b.Put("from-b", Server{Type: TypeStdio, Command: "b"})
	if err := a.Save(nil); err != nil {
		t.Fatal(err)
	}
	err := b.Save(nil)
	var ce *ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, ErrConflict) || ce.Path != path {
		t.Fatalf("second writer: %v", err)
	}
	if strings.Contains(readFile(t, path), "from-b") || !strings.Contains(readFile(t, path), "from-a") {
		t.Fatal("conflicting save wrote anyway")
	}
	// a file deleted behind our back is a conflict too
	c, _ := Load(path)
	os.Remove(path)
	c.Put("x", Server{Type: TypeStdio, Command: "x"})
	if err := c.Save(nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("deleted file: %v", err)
	}
}

func TestUpdateLosesNoEntry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	var wg sync.WaitGroup
	const n = 6
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("w%d", i)
			errs[i] = Update(path, nil, func(c *Catalog) error {
				return c.Add(name, Server{Type: TypeStdio, Command: name})
			})
		}()
	}
	wg.Wait()
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// every writer's entry is there, or the writer was told (never silently lost)
	for i := 0; i < n; i++ {
		present := c.Find(fmt.Sprintf("w%d", i)) >= 0
		if present != (errs[i] == nil) {
			t.Errorf("w%d: present=%v, Update error %v", i, present, errs[i])
		}
		if errs[i] != nil && !errors.Is(errs[i], ErrConflict) {
			t.Errorf("w%d: %v", i, errs[i])
		}
	}
	if c.Find(DemoServerName) < 0 {
		t.Fatal("seed lost")
	}
}

// TestDefaultPath: the XDG default. SPYGLASS_CATALOG's precedence is
// cmd's (TestSource in cmd/args_test.go).
func TestDefaultPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	xdgHome := filepath.Join(t.TempDir(), "cfg")
	if got := DefaultPathFromEnv(env(map[string]string{"XDG_CONFIG_HOME": xdgHome})); got != filepath.Join(xdgHome, "spyglass", "mcp.json") {
		t.Fatal(got)
	}
	if runtime.GOOS == "linux" {
		if got := DefaultPathFromEnv(env(map[string]string{"HOME": "/home/u"})); got != "/home/u/.config/spyglass/mcp.json" {
			t.Fatal(got)
		}
		if got := DefaultPathFromEnv(env(map[string]string{"HOME": "/home/u", "XDG_CONFIG_HOME": "relative"})); got != "/home/u/.config/spyglass/mcp.json" {
			t.Fatal("relative XDG_CONFIG_HOME must be ignored:", got)
		}
	}
}

func TestResolveCommand(t *testing.T) {
	exe := func() (string, error) { return "/opt/bin/spyglass-real", nil }
	tests := []struct {
		cmd  string
		args []string
		want string
	}{
		{"spyglass", []string{"--demo-server"}, "/opt/bin/spyglass-real"},
		{"spyglass", []string{"--demo-server", "--transport", "stdio"}, "/opt/bin/spyglass-real"},
		{"spyglass", nil, "spyglass"},
		{"spyglass", []string{"--cli"}, "spyglass"},
		{"/usr/bin/spyglass", []string{"--demo-server"}, "/usr/bin/spyglass"},
		{"node", []string{"--demo-server"}, "node"},
	}
	for _, tc := range tests {
		got, err := resolveCommand(tc.cmd, tc.args, exe)
		if err != nil || got != tc.want {
			t.Errorf("resolve(%s %v) = %s, %v", tc.cmd, tc.args, got, err)
		}
	}
	got, err := ResolveCommand("spyglass", []string{"--demo-server"})
	self, _ := os.Executable()
	if err != nil || got != self {
		t.Fatal(got, err)
	}
	if strings.Contains(Seed, os.TempDir()+"/go-build") || strings.Contains(Seed, self) {
		t.Fatal("seed holds a build path")
	}
}

func TestSourceOpenAndOverrides(t *testing.T) {
	src := &Source{Kind: SourceAdHoc, AdHocName: "node x", AdHoc: &Server{Type: TypeStdio, Command: "node", Args: []string{"x"}}}
	c, created, err := src.Open()
	if err != nil || created || !c.ReadOnly() || c.Len() != 1 {
		t.Fatal(err)
	}
	name, s, err := src.Resolve(c)
	if err != nil || name != "node x" || s.Command != "node" {
		t.Fatal(name, err)
	}
	if err := c.Save(nil); !errors.Is(err, ErrReadOnly) {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, path, `{"mcpServers": {"s": {"command": "x", "env": {"A": "1"}}, "h": {"url": "https://h.example/mcp"}}}`)
	tests := []struct {
		server string
		ov     Overrides
		err    error
		check  func(Server) bool
	}{
		{"s", Overrides{Env: map[string]string{"A": "2", "B": "3"}, Cwd: "/w"}, nil, func(s Server) bool { return s.Env["A"] == "2" && s.Env["B"] == "3" && s.Cwd == "/w" }},
		{"h", Overrides{Headers: map[string]string{"X": "y"}}, nil, func(s Server) bool { return s.Headers["X"] == "y" }},
		{"h", Overrides{Env: map[string]string{"A": "2"}}, ErrOverride, nil},
		{"h", Overrides{Cwd: "/w"}, ErrOverride, nil},
		{"s", Overrides{Headers: map[string]string{"X": "y"}}, ErrOverride, nil},
		{"", Overrides{}, ErrAmbiguous, nil},
		{"zz", Overrides{}, ErrNotFound, nil},
	}
	for _, tc := range tests {
		src := &Source{Kind: SourceCatalog, Path: path, Server: tc.server, Overrides: tc.ov}
		c, _, err := src.Open()
		if err != nil {
			t.Fatal(err)
		}
		_, s, err := src.Resolve(c)
		if !errors.Is(err, tc.err) || (tc.check != nil && !tc.check(s)) {
			t.Errorf("%s %+v: %v %+v", tc.server, tc.ov, err, s)
		}
		if c.Changed() {
			t.Error("overrides must not change the catalog")
		}
	}
}

func TestRebaseAfterConflict(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	writeFile(t, path, Seed)
	a, _ := Load(path)
	b, _ := Load(path)
	// writer a: adds one, edits one, deletes one
	a.Put("from-a", Server{Type: TypeStdio, Command: "a"})
	fsrv, _ := a.Get("filesystem-server-default")
	fsrv.Cwd = "/a"
	a.Put("filesystem-server-default", fsrv)
	a.Delete("everything-server-default")
	if err := a.Save(nil); err != nil {
		t.Fatal(err)
	}
	// writer b: adds one, renames the demo, edits the one a edited
	b.Put("from-b", Server{Type: TypeHTTP, URL: "https://b.example/mcp"})
	b.Rename(DemoServerName, "demo")
	fsrv, _ = b.Get("filesystem-server-default")
	fsrv.Env = map[string]string{"B": "1"}
	b.Put("filesystem-server-default", fsrv)
	if err := b.Save(nil); !errors.Is(err, ErrConflict) {
		t.Fatal(err)
	}
	if err := b.Rebase(); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(nil); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Names(), ","); got != "demo,filesystem-server-default,from-a,from-b" {
		t.Fatalf("names %s\n%s", got, readFile(t, path))
	}
	if s, _ := c.Get("filesystem-server-default"); s.Env["B"] != "1" {
		t.Fatal("b's edit lost")
	}
}

// TestUpdateRetriesAfterConflict: when another writer changes the file
// between Update's read and its save, Update reads again and applies fn on
// top of the other writer's change; a file that changes before every save
// ends in ErrConflict after 20 tries. The pauses run on synctest's clock.
func TestUpdateRetriesAfterConflict(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mcp.json")
		writeFile(t, path, `{"mcpServers": {}}`)
		calls := 0
		err := Update(path, nil, func(c *Catalog) error {
			calls++
			if calls == 1 {
				writeFile(t, path, `{"mcpServers": {"other": {"command": "o"}}}`) // another writer
			}
			return c.Add("mine", Server{Type: TypeStdio, Command: "m"})
		})
		if err != nil || calls != 2 {
			t.Fatalf("Update = %v after %d calls, want nil after 2", err, calls)
		}
		c, err := Load(path)
		if err != nil || strings.Join(c.Names(), ",") != "other,mine" {
			t.Fatalf("%v %v", c.Names(), err)
		}

		calls = 0
		err = Update(path, nil, func(c *Catalog) error {
			calls++
			writeFile(t, path, fmt.Sprintf(`{"mcpServers": {"w%d": {"command": "o"}}}`, calls))
			return c.Add("never", Server{Type: TypeStdio, Command: "n"})
		})
		if !errors.Is(err, ErrConflict) || calls != 20 {
			t.Fatalf("Update = %v after %d calls, want ErrConflict after 20", err, calls)
		}
		if strings.Contains(readFile(t, path), "never") {
			t.Fatal("a conflicting save wrote")
		}
	})
}

// TestReadFileBounded: a device, a FIFO (which nobody writes) or a folder
// is refused as not a regular file, without reading; a file over
// MaxFileSize is refused naming the limit; a symbolic link to a missing
// file says so, and LoadOrCreate does not seed through it.
func TestReadFileBounded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero or FIFOs")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", fifo, dir} {
		if _, err := LoadReadOnly(p); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want ErrNotRegular naming the file", p, err)
		}
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "16 MiB") {
		t.Errorf("big file: %v", err)
	}
	link := filepath.Join(dir, "mcp.json")
	if err := os.Symlink(filepath.Join(dir, "missing", "mcp.json"), link); err != nil {
		t.Fatal(err)
	}
	_, _, err := LoadOrCreate(link)
	var le *LinkError
	if !errors.As(err, &le) || le.ReadOnly || le.Target != filepath.Join(dir, "missing", "mcp.json") || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("dangling link as catalog: %v", err)
	}
	if _, err := LoadReadOnly(link); !errors.As(err, &le) || !le.ReadOnly {
		t.Fatalf("dangling link as config: %v", err)
	}
}
