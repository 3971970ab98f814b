package requests

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
)

func newRoots(t *testing.T, roots []Root) (*RootsPanel, *[][]Root, fyne.Window) {
	t.Helper()
	newApp(t)
	p := NewRootsPanel(roots, nil)
	var changes [][]Root
	p.OnChanged = func(r []Root) { changes = append(changes, r) }
	win := window(t, scrolled(p.Object()), 720, 640)
	return p, &changes, win
}

func TestRootsEmptyAddRemove(t *testing.T) {
	p, changes, win := newRoots(t, nil)
	capture(t, win, "roots-empty")
	if !strings.Contains(texts(p.Object()), "No roots yet.") {
		t.Errorf("no empty state:\n%s", texts(p.Object()))
	}
	if !strings.Contains(texts(p.Object()), "Roots give the server access to these directories.") {
		t.Error("no security warning")
	}
	dir := filepath.Join(t.TempDir(), "my project")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	test.Type(p.name, "Project")
	test.Type(p.path, dir)
	test.Tap(button(t, p.Object(), "Add"))
	want := Root{Name: "Project", URI: "file://" + strings.ReplaceAll(filepath.ToSlash(dir), " ", "%20")}
	if len(*changes) != 1 || len((*changes)[0]) != 1 || (*changes)[0][0] != want {
		t.Fatalf("changes = %+v, want %+v", *changes, want)
	}
	if !strings.HasPrefix(want.URI, "file:///") || p.path.Text != "" {
		t.Errorf("uri %q, path left %q", want.URI, p.path.Text)
	}
	if !strings.Contains(texts(p.Object()), want.URI) {
		t.Errorf("list does not show the root:\n%s", texts(p.Object()))
	}
	capture(t, win, "roots-one")

	// The same folder again is refused.
	test.Type(p.path, dir)
	test.Tap(button(t, p.Object(), "Add"))
	if _, problem := p.Message(); !strings.Contains(problem, "already a root") || len(*changes) != 1 {
		t.Errorf("duplicate: %q, %d changes", problem, len(*changes))
	}
	test.Tap(button(t, p.Object(), "Remove"))
	if len(*changes) != 2 || len((*changes)[1]) != 0 || len(p.Roots()) != 0 {
		t.Fatalf("changes = %+v", *changes)
	}
}

func TestRootsAddRefusesBadPaths(t *testing.T) {
	p, changes, _ := newRoots(t, nil)
	file := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, tc := range []struct{ path, want string }{
		{"", "Type the folder's path"},
		{"relative/dir", "full path"},
		{"/no/such/folder/anywhere", "no such folder"},
		{file, "is a file; roots must be folders"},
	} {
		p.path.SetText(tc.path)
		test.Tap(button(t, p.Object(), "Add"))
		if _, problem := p.Message(); !strings.Contains(problem, tc.want) {
			t.Errorf("%q: problem %q, want %q", tc.path, problem, tc.want)
		}
	}
	if len(*changes) != 0 {
		t.Errorf("changes = %+v", *changes)
	}
}

func TestRootsDrop(t *testing.T) {
	tmp := t.TempDir()
	a := filepath.Join(tmp, "alpha")
	b := filepath.Join(tmp, "beta dir ä#%")
	f := filepath.Join(tmp, "readme.md")
	os.Mkdir(a, 0o755)
	os.Mkdir(b, 0o755)
	os.WriteFile(f, []byte("x"), 0o644)
	p, changes, win := newRoots(t, []Root{{Name: "Config", URI: "file:///etc/myapp"}})

	p.OnDropped([]fyne.URI{storage.NewFileURI(a), storage.NewFileURI(f), storage.NewFileURI(b)})
	if len(*changes) != 1 {
		t.Fatalf("changes = %+v", *changes)
	}
	got := (*changes)[0]
	if len(got) != 3 || got[1].Name != "alpha" || got[2].Name != "beta dir ä#%" ||
		got[2].URI != "file://"+filepath.ToSlash(tmp)+"/beta%20dir%20%C3%A4%23%25" {
		t.Errorf("roots = %+v", got)
	}
	status, problem := p.Message()
	if status != "Added 2 folders as roots." || !strings.Contains(problem, "readme.md is a file; roots must be folders") {
		t.Errorf("status %q, problem %q", status, problem)
	}
	capture(t, win, "roots-dropped")

	// Dropping only a file changes nothing.
	p.OnDropped([]fyne.URI{storage.NewFileURI(f)})
	if len(*changes) != 1 {
		t.Error("a file drop reported a change")
	}
	// A non-file URI is refused.
	u, _ := storage.ParseURI("https://example.com/x")
	p.OnDropped([]fyne.URI{u})
	if _, problem := p.Message(); !strings.Contains(problem, "not a local folder") {
		t.Errorf("problem %q", problem)
	}
}

func TestRootsConcurrentRead(t *testing.T) {
	p, _, _ := newRoots(t, []Root{{Name: "x", URI: "file:///x"}})
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				_ = p.Roots()
			}
		}()
	}
	dir := t.TempDir()
	p.OnDropped([]fyne.URI{storage.NewFileURI(dir)})
	wg.Wait()
	if len(p.Roots()) != 2 {
		t.Errorf("roots = %+v", p.Roots())
	}
}

func TestRootsSetServerAndRoots(t *testing.T) {
	p, changes, _ := newRoots(t, nil)
	p.SetServer("filesystem")
	p.SetRoots([]Root{{Name: "a", URI: "file:///a"}})
	shown := texts(p.Object())
	if !strings.Contains(shown, "Filesystem roots exposed to “filesystem”:") || !strings.Contains(shown, "file:///a") {
		t.Errorf("panel:\n%s", shown)
	}
	if len(*changes) != 0 {
		t.Error("SetRoots reported a change")
	}
}

func TestSplitFolders(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "mcp.json")
	os.WriteFile(f, []byte("{}"), 0o644)
	web, _ := storage.ParseURI("https://example.com/")
	folders, others := SplitFolders([]fyne.URI{storage.NewFileURI(f), storage.NewFileURI(dir), web})
	if len(folders) != 1 || folders[0].Path() != dir || len(others) != 2 {
		t.Errorf("folders %v, others %v", folders, others)
	}
}
