package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// startApp is an app as Fyne's GL driver has it before the app runs:
// SetTheme takes the theme but redraws nothing (the driver registers its
// settings listener, which re-applies a theme to every window, only once
// it runs). The headless test app re-applies at once, which hid the bug.
type startApp struct {
	fyne.App
	s *startSettings
}

// Settings implements fyne.App.
func (a *startApp) Settings() fyne.Settings { return a.s }

type startSettings struct {
	fyne.Settings
	th fyne.Theme
}

func (s *startSettings) Theme() fyne.Theme      { return s.th }
func (s *startSettings) SetTheme(th fyne.Theme) { s.th = th }

// TestRememberedLightThemeAtStart: a window opened with Light remembered
// draws its headings and the inspector's buttons in the light theme's
// text colour, readable on its background, without the theme being
// switched once. The window used to build its widgets in the start theme
// and apply the remembered one afterwards, which before the app runs
// recolours nothing: "Servers" and "Inspector" were near-white on white.
func TestRememberedLightThemeAtStart(t *testing.T) {
	base := test.NewTempApp(t)
	base.Preferences().SetString(prefTheme, "light")
	a := &startApp{App: base, s: &startSettings{Settings: base.Settings(), th: base.Settings().Theme()}}
	fyne.SetCurrentApp(a)
	var w *Window
	Sync(func() {
		w = New(a, newFakeBackend("fake"), &Options{})
		w.win.Show()
	})
	t.Cleanup(func() { Sync(w.Close) })
	Sync(func() {
		th := a.Settings().Theme()
		fg := th.Color(theme.ColorNameForeground, theme.VariantDark) // variantTheme ignores the asked variant
		bg := th.Color(theme.ColorNameBackground, theme.VariantDark)
		if contrast(fg, bg) < 4.5 || luminance(bg) < 0.5 {
			t.Fatalf("the remembered light theme is not in effect: text %v on %v", fg, bg)
		}
		want := []string{"Servers", "Inspector", "Pause", "Clear", "Trace", "fake"}
		seen := map[string]bool{}
		walkVisible(w.win.Content(), func(o fyne.CanvasObject) {
			txt, ok := o.(*canvas.Text)
			if !ok || !slices.Contains(want, txt.Text) {
				return
			}
			seen[txt.Text] = true
			if r := contrast(txt.Color, bg); r < 4.5 {
				t.Errorf("%q is drawn in %v on the light background %v (%.2f:1, want at least 4.5:1)", txt.Text, txt.Color, bg, r)
			}
		})
		for _, s := range want {
			if !seen[s] {
				t.Errorf("no text %q in the window", s)
			}
		}
	})
}
