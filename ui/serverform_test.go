package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
	"github.com/spyglass-mcp/spyglass/ui/requests"
)

// undoBackend is the fake backend with Undo and Clear OAuth state.
type undoBackend struct {
	*fakeBackend
	mu      sync.Mutex
	removed map[string]struct {
		at  int
		cfg ServerConfig
	}
	cleared  []string
	clearMsg string
}

func (b *undoBackend) RemoveServer(name string) error {
	for i, s := range b.Servers() {
		if s.Name == name {
			b.mu.Lock()
			if b.removed == nil {
				b.removed = map[string]struct {
					at  int
					cfg ServerConfig
				}{}
			}
			b.removed[name] = struct {
				at  int
				cfg ServerConfig
			}{i, s}
			b.mu.Unlock()
		}
	}
	return b.fakeBackend.RemoveServer(name)
}

func (b *undoBackend) RestoreServer(name string) error {
	b.mu.Lock()
	r, ok := b.removed[name]
	delete(b.removed, name)
	b.mu.Unlock()
	if !ok {
		return errors.New("gone")
	}
	b.fakeBackend.mu.Lock()
	defer b.fakeBackend.mu.Unlock()
	b.servers = append(b.servers[:r.at], append([]ServerConfig{r.cfg}, b.servers[r.at:]...)...)
	return nil
}

func (b *undoBackend) ClearOAuth(_ context.Context, name string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cleared = append(b.cleared, name)
	return b.clearMsg, nil
}

// TestServerFormEveryField: every per-server field of the seed is in the
// form, loaded from the config and saved back unchanged; edits reach the
// backend.
func TestServerFormEveryField(t *testing.T) {
	b := newFakeBackend("one")
	w := newTestWindow(t, b, nil)
	n := 0
	cfg := ServerConfig{Name: "web", Transport: "http", URL: "https://mcp.example/mcp",
		ModernLogLevel: "info", AdvertisedExtensions: json.RawMessage(`{"io.x/ui":{}}`), MaxFetchRequests: &n, MaxMessageSize: 16 << 20,
		Auth: OAuthConfig{ClientID: "cid", Scopes: "mcp:read", NoRefreshToken: true, NoRevokeOnClear: true,
			AuthorizationParams: map[string]string{"login_hint": "me@example.com"},
			AuthorizationURL:    "https://staging.example/authorize", TokenURL: "https://staging.example/token",
			OnInsufficientScope: "fail", AssertionFile: "/run/jwt", AssertionEnv: "JWT", DPoP: "off",
			EnterpriseManaged: true, IDPIssuer: "https://idp.example", IDPTokenURL: "https://idp.example/token",
			IDPClientID: "spy", IDTokenFile: "/run/idtoken", IDTokenEnv: "IDT"}}
	Sync(func() {
		f := &serverForm{w: w, base: cfg}
		f.errLblInit()
		f.buildUI(cfg)
		got, ps := f.config()
		if len(ps) != 0 {
			t.Fatalf("problems: %+v", ps)
		}
		if got.ModernLogLevel != "info" || compactJSON(got.AdvertisedExtensions) != `{"io.x/ui":{}}` || got.MaxFetchRequests == nil || *got.MaxFetchRequests != 0 || got.MaxMessageSize != 16<<20 {
			t.Errorf("advanced fields: %+v", got)
		}
		if gj, cj := mustJSON(t, got.Auth), mustJSON(t, cfg.Auth); gj != cj {
			t.Errorf("oauth read back\n%s\nwant\n%s", gj, cj)
		}
		// a typed secret is handed over (for the keyring); a new parameter row
		f.clientSecret.SetText("s3cret")
		f.addParam("kc_idp_hint", "github")
		f.maxMsg.SetText("64KiB")
		f.logLevel.SetSelectedIndex(0)
		if !f.onSave() {
			t.Fatalf("save refused: %s", f.errLbl.Text)
		}
	})
	got := b.Servers()[1]
	if got.Auth.ClientSecret != "s3cret" || got.Auth.AuthorizationParams["kc_idp_hint"] != "github" || got.MaxMessageSize != 64<<10 || got.ModernLogLevel != "" {
		t.Errorf("saved %+v", got)
	}
}

func compactJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestServerFormInlineErrors: problems are shown at their fields in plain
// words, reserved authorization parameters are refused at their row as
// they are typed, and a placeholder is not a value.
func TestServerFormInlineErrors(t *testing.T) {
	b := newFakeBackend()
	w := newTestWindow(t, b, nil)
	Sync(func() {
		f := &serverForm{w: w}
		f.errLblInit()
		f.buildUI(ServerConfig{Transport: "stdio"})
		f.name.SetText("x")
		for _, it := range f.acc.Items {
			if it == f.oauth {
				t.Error("a stdio server's form offers OAuth")
			}
		}
		if f.command.Text != "" || f.command.PlaceHolder == "" {
			t.Fatalf("command %q, placeholder %q", f.command.Text, f.command.PlaceHolder)
		}
		if f.onSave() {
			t.Fatal("saved without a command")
		}
		if l := f.errs["command"]; l.Hidden || !strings.Contains(l.Text, "needs a command") {
			t.Errorf("command error %q hidden=%v", l.Text, l.Hidden)
		}
		f.command.SetText("node")
		f.metadata.SetText(`{"a": nul}`)
		f.maxFetch.SetText("lots")
		if f.onSave() {
			t.Fatal("saved bad metadata")
		}
		if l := f.errs["command"]; l.Text != "" {
			t.Errorf("a fixed field keeps its error: %q", l.Text)
		}
		if l := f.errs["metadata"]; l.Hidden || strings.Contains(l.Text, "invalid character") || !strings.Contains(l.Text, "line 1, column") {
			t.Errorf("metadata error %q", l.Text)
		}
		if l := f.errs["maxFetchRequests"]; l.Hidden || !strings.Contains(l.Text, "whole number") {
			t.Errorf("maxFetchRequests error %q", l.Text)
		}
		if !strings.Contains(f.errLbl.Text, "1 more problem") {
			t.Errorf("summary %q", f.errLbl.Text)
		}
	})
	Sync(func() {
		f := &serverForm{w: w}
		f.errLblInit()
		f.buildUI(ServerConfig{Transport: "http"})
		if len(f.acc.Items) != 3 || f.acc.Items[1] != f.oauth {
			t.Error("an http server's form has no OAuth section")
		}
		f.name.SetText("web")
		f.url.SetText("https://mcp.example/mcp")
		// typed into the row: refused there at once
		f.addParam("", "")
		row := f.params[0]
		test.Type(row.key, "redirect_uri")
		if row.err.Hidden || !strings.Contains(row.err.Text, "redirect_uri is set by the sign-in itself") {
			t.Errorf("reserved parameter: %q hidden=%v", row.err.Text, row.err.Hidden)
		}
		test.Type(f.tokenURL, "staging/token")
		if l := f.errs["oauth.tokenUrl"]; l.Hidden || !strings.Contains(l.Text, "https://") {
			t.Errorf("token URL error %q", l.Text)
		}
		if f.onSave() {
			t.Fatal("saved a reserved parameter and a bad URL")
		}
		// enterprise-managed: what it needs, and the notes on what it ignores
		if !f.emaBox.Hidden || f.emaNotes[0].Text == emaIgnored {
			t.Error("enterprise fields shown while off")
		}
		f.ema.SetChecked(true)
		if f.emaBox.Hidden || f.emaNotes[0].Text != emaIgnored || f.emaNotes[2].Text != emaIgnored {
			t.Error("enterprise fields hidden while on, or the notes do not say what it ignores")
		}
		row.key.SetText("login_hint")
		f.tokenURL.SetText("")
		if f.onSave() {
			t.Fatal("saved enterprise-managed without an IdP")
		}
		if l := f.errs["oauth.idpIssuer"]; l.Hidden || !strings.Contains(l.Text, "IdP's issuer") {
			t.Errorf("idp issuer error %q", l.Text)
		}
		f.idpIssuer.SetText("https://idp.example")
		f.idpClientID.SetText("spy")
		if !f.onSave() {
			t.Fatalf("refused: %s", f.errLbl.Text)
		}
	})
	if got := b.Servers()[0].Auth; !got.EnterpriseManaged || got.IDPIssuer != "https://idp.example" || got.AuthorizationParams["login_hint"] != "" {
		t.Errorf("saved %+v", got)
	}
}

// pressEsc types Esc the way the window hands it over: to the focused
// widget, else to the canvas.
func pressEsc(c fyne.Canvas) {
	ev := &fyne.KeyEvent{Name: fyne.KeyEscape}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if h := c.OnTypedKey(); h != nil {
		h(ev)
	}
}

// TestEscCancelsEveryDialog opens each dialog of the window and presses
// Esc: the dialog closes, as Cancel or Close would (a confirmation does
// not confirm).
func TestEscCancelsEveryDialog(t *testing.T) {
	b := newFakeBackend("one")
	w := newTestWindow(t, b, nil)
	c := w.win.Canvas()
	open := map[string]func(){
		"server form (an entry focused)": func() {
			showServerForm(w, "one", b.Servers()[0])
			var e fyne.Focusable
			for _, o := range c.Overlays().List() {
				walkAll(o, func(o fyne.CanvasObject) {
					if x, ok := o.(*esc.Entry); ok && e == nil {
						e = x
					}
				})
			}
			if e == nil {
				t.Fatal("no entry in the server form")
			}
			c.Focus(e)
		},
		"add server":          func() { showServerForm(w, "", ServerConfig{Transport: "stdio"}) },
		"remove confirmation": func() { w.list.cards[w.server("one")].onRemove() },
		"keyboard shortcuts":  func() { w.onShortcutHelp("Ctrl") },
		"about":               w.onAbout,
		"full error":          func() { showTextDialog("Details", "a long error", w.win) },
		"sampling profiles":   func() { requests.ShowProfilesEditor(w.win, memProfiles{}, nil) },
		"connect-time inputs (an entry focused)": func() {
			w.server("one").askInputs(&InputsNeededError{Server: "one", Inputs: []Input{{ID: "key", Where: "env.KEY"}},
				Provide: func(map[string]string) error { return nil }, Err: errors.New("needs a value")})
			ov := c.Overlays().Top()
			walkAll(ov, func(o fyne.CanvasObject) {
				if x, ok := o.(*esc.Entry); ok && c.Focused() == nil {
					c.Focus(x)
				}
			})
			if c.Focused() == nil {
				t.Fatal("no entry in the inputs dialog")
			}
		},
	}
	for name, fn := range open {
		Sync(func() {
			before := len(c.Overlays().List())
			fn()
			if len(c.Overlays().List()) == before {
				t.Fatalf("%s: no dialog opened", name)
			}
			pressEsc(c)
			if n := len(c.Overlays().List()); n != before {
				t.Errorf("%s: Esc left %d overlays open", name, n-before)
			}
		})
	}
	if len(b.Servers()) != 1 {
		t.Error("Esc on the remove confirmation removed the server")
	}
	// two dialogs: Esc closes the top one only
	Sync(func() {
		showServerForm(w, "one", b.Servers()[0])
		showTextDialog("Details", "x", w.win)
		pressEsc(c)
		if esc.Open(c) != 1 {
			t.Errorf("%d dialogs open after one Esc, want 1", esc.Open(c))
		}
		pressEsc(c)
		if esc.Open(c) != 0 {
			t.Errorf("%d dialogs open after two", esc.Open(c))
		}
	})
}

type memProfiles struct{}

func (memProfiles) Load() (requests.ProfileSet, error) { return requests.ProfileSet{}, nil }
func (memProfiles) Save(requests.ProfileSet) error     { return nil }

// walkAll visits every object under o, hidden ones too.
func walkAll(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	fn(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walkAll(c, fn)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walkAll(c, fn)
		}
	}
}

// TestRemoveUndo: removing a server offers Undo in a toast; Undo puts it
// back at its position and selects it.
func TestRemoveUndo(t *testing.T) {
	b := &undoBackend{fakeBackend: newFakeBackend("a", "b", "c")}
	w := newTestWindowBackend(t, b)
	Sync(func() { w.removeServer("b") })
	if got := names(b.Servers()); got != "a,c" {
		t.Fatalf("after remove: %s", got)
	}
	var undo *toast
	Sync(func() {
		for _, it := range w.toasts.items {
			if it.text == "Removed b" {
				undo = it
			}
		}
	})
	if undo == nil {
		t.Fatalf("no Removed toast: %q", w.toasts.texts())
	}
	var btn *widget.Button
	Sync(func() {
		walkAll(undo.obj, func(o fyne.CanvasObject) {
			if bt, ok := esc.AsButton(o); ok && btn == nil && bt.Text == "Undo" {
				btn = bt
			}
		})
	})
	if btn == nil {
		t.Fatal("the toast has no Undo button")
	}
	Sync(func() { test.Tap(btn) })
	if got := names(b.Servers()); got != "a,b,c" {
		t.Fatalf("after undo: %s", got)
	}
	Sync(func() {
		if w.selected == nil || w.selected.cfg.Name != "b" {
			t.Error("the restored server is not selected")
		}
		if w.server("b") == nil {
			t.Error("the list does not show b again")
		}
	})
}

// TestClearOAuthMenu: the card menu's and the Servers menu's Clear OAuth
// state reach the backend and say what it did.
func TestClearOAuthMenu(t *testing.T) {
	fb := newFakeBackend()
	fb.servers = []ServerConfig{{Name: "web", Transport: "http", URL: "https://mcp.example/mcp", OAuth: true}}
	b := &undoBackend{fakeBackend: fb, clearMsg: "Cleared the OAuth state of web; its tokens were revoked."}
	w := newTestWindowBackend(t, b)
	Sync(func() {
		w.selectServer(w.server("web"))
		w.onClearOAuthServer()
	})
	waitFor(t, "the Clear OAuth state toast", func() bool {
		return strings.Contains(strings.Join(w.toasts.texts(), "\n"), "its tokens were revoked")
	})
	b.mu.Lock()
	defer b.mu.Unlock()
	if strings.Join(b.cleared, ",") != "web" {
		t.Errorf("cleared %v", b.cleared)
	}
}

func names(cs []ServerConfig) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return strings.Join(out, ",")
}

// newTestWindowBackend is newTestWindow over any Backend.
func newTestWindowBackend(t *testing.T, b Backend) *Window {
	t.Helper()
	a := test.NewTempApp(t)
	var w *Window
	Sync(func() {
		w = New(a, b, &Options{RetryDelay: 5 * time.Millisecond})
		w.win.Resize(fyne.NewSize(1280, 800))
		w.win.Show()
	})
	t.Cleanup(func() { Sync(w.Close) })
	return w
}

// TestThemeRecoloursCards: after View › Theme every server card has the
// new theme's colours, the unselected ones too (one stayed dark in the
// light theme under Xvfb).
func TestThemeRecoloursCards(t *testing.T) {
	b := newFakeBackend("a", "b")
	w := newTestWindow(t, b, nil)
	for _, name := range []string{"dark", "light"} {
		Sync(func() {
			w.selectServer(w.server("a"))
			w.setTheme(name)
			want := fyne.CurrentApp().Settings().Theme().Color(theme.ColorNameInputBackground, map[string]fyne.ThemeVariant{"dark": theme.VariantDark, "light": theme.VariantLight}[name])
			if got := w.list.cards[w.server("b")].bg.FillColor; got != want {
				t.Errorf("%s: the unselected card is %v, want %v", name, got, want)
			}
		})
	}
}

// TestServerFormEndsWithContent: on a 1920×1080 window the Edit server
// dialog ends where its content does: no empty band under Advanced,
// closed or open; on 1024×700 it still fits the window, the sections
// scrolling inside; an opened section's fields are scrolled into view.
func TestServerFormEndsWithContent(t *testing.T) {
	b := newFakeBackend("one")
	w := newTestWindow(t, b, nil)
	for _, size := range []fyne.Size{{Width: 1920, Height: 1080}, {Width: 1024, Height: 700}} {
		Sync(func() {
			w.win.Resize(size)
			c := w.win.Canvas()
			showServerForm(w, "one", b.Servers()[0])
			top := c.Overlays().Top()
			var scroll *container.Scroll
			walkAll(top, func(o fyne.CanvasObject) {
				if s, ok := o.(*container.Scroll); ok && scroll == nil {
					scroll = s
				}
			})
			if scroll == nil {
				t.Fatal("no scrolling sections in the server form")
			}
			if band := scroll.Size().Height - scroll.Content.MinSize().Height; band > 1 {
				t.Errorf("at %v the sections leave an empty band of %v px under Advanced", size, band)
			}
			drv := fyne.CurrentApp().Driver()
			pos := drv.AbsolutePositionForObject(scroll)
			if pos.Y < 0 || pos.Y+scroll.Size().Height > size.Height {
				t.Errorf("at %v the sections run from y=%v to %v, beyond the window", size, pos.Y, pos.Y+scroll.Size().Height)
			}
			// opening Advanced: the dialog follows (still no band, still
			// in the window) and Advanced's fields are in view
			var acc *esc.Accordion
			walkAll(top, func(o fyne.CanvasObject) {
				if a, ok := o.(*esc.Accordion); ok {
					acc = a
				}
			})
			last := len(acc.Items) - 1
			before := scroll.Size().Height
			acc.Open(last)
			if band := scroll.Size().Height - scroll.Content.MinSize().Height; band > 1 {
				t.Errorf("at %v with Advanced open the sections leave an empty band of %v px", size, band)
			}
			pos = drv.AbsolutePositionForObject(scroll)
			if pos.Y < 0 || pos.Y+scroll.Size().Height > size.Height {
				t.Errorf("at %v with Advanced open the sections run from y=%v to %v, beyond the window", size, pos.Y, pos.Y+scroll.Size().Height)
			}
			if size.Height > 1000 && scroll.Size().Height <= before {
				t.Errorf("at %v the dialog did not grow as Advanced opened (%v px)", size, before)
			}
			detail := acc.Items[last].Detail
			y := drv.AbsolutePositionForObject(detail).Y - pos.Y
			if y < 0 || y+40 > scroll.Size().Height {
				t.Errorf("at %v Advanced's fields start at %v px in a %v px view: not in view", size, y, scroll.Size().Height)
			}
			if scroll.Content.MinSize().Height > scroll.Size().Height && scroll.Offset.Y == 0 {
				t.Errorf("at %v Advanced opened below the view and the sections did not scroll to it", size)
			}
			for c.Overlays().Top() != nil {
				c.Overlays().Remove(c.Overlays().Top())
			}
		})
	}
}

// TestThemeRecoloursBadgeRows: a badge in a list row that was kept aside
// while the theme changed takes the new theme's text colour when the row
// shows again (a Resources list's "template" badges stayed white on pale
// blue in the light theme under Xvfb): Set draws it again though its text
// did not change.
func TestThemeRecoloursBadgeRows(t *testing.T) {
	w := newTestWindow(t, newFakeBackend("a"), nil)
	var b *badge
	var r *badgeRenderer
	Sync(func() {
		w.setTheme("dark")
		b = newBadge("template", "primary")
		r = test.WidgetRenderer(b).(*badgeRenderer)
		w.setTheme("light")          // the row is not in the window: nothing redraws it
		b.Set("template", "primary") // the list shows the row again
		light := fyne.CurrentApp().Settings().Theme().Color(theme.ColorNameForeground, theme.VariantLight)
		if r.txt.Color != light {
			t.Errorf("the badge's text is %v in the light theme, want its foreground %v", r.txt.Color, light)
		}
	})
}
