package requests

import (
	"image/color"
	"os"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// lightTheme is the default theme forced to its light variant.
type lightTheme struct{ fyne.Theme }

func (l lightTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return l.Theme.Color(n, theme.VariantLight)
}

// TestLightRenders renders the panels in the light variant (for looking at
// contrast; only with REQUESTS_PNG_DIR).
func TestLightRenders(t *testing.T) {
	if os.Getenv("REQUESTS_PNG_DIR") == "" {
		t.Skip("set REQUESTS_PNG_DIR to render")
	}
	a := test.NewTempApp(t)
	a.Settings().SetTheme(lightTheme{theme.DefaultTheme()})
	s := NewSamplingPanel(toolSampling(), &SamplingOptions{Profiles: testProfiles(), Responder: fakeResponder{}})
	e := NewElicitationPanel(urlRequest(), nil)
	r := NewRootsPanel([]Root{{Name: "Project", URI: "file:///home/user/project"}}, nil)
	w := window(t, scrolled(container.NewVBox(s.Object(), e.Object(), r.Object())), 720, 1900)
	capture(t, w, "light")
}

// TestBoxFollowsTheme: a request panel's cards take the new theme's
// colours when the theme changes while they are shown (they kept the
// dark fill in the light theme, seen under Xvfb with View → Theme).
func TestBoxFollowsTheme(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(darkTheme{theme.DefaultTheme()})
	b := box("", mutedLabel("a card"))
	window(t, b, 200, 100)
	rect := func() color.Color {
		return test.WidgetRenderer(b.Objects[0].(*boxBackground)).(*boxRenderer).rect.FillColor
	}
	dark := rect()
	a.Settings().SetTheme(lightTheme{theme.DefaultTheme()}) // the app refreshes its windows

	want := theme.DefaultTheme().Color(theme.ColorNameInputBackground, theme.VariantLight)
	if got := rect(); got != want || got == dark {
		t.Errorf("after the switch the card is filled %v, want the light %v (dark was %v)", got, want, dark)
	}
}

// darkTheme is the default theme forced to its dark variant.
type darkTheme struct{ fyne.Theme }

func (d darkTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return d.Theme.Color(n, theme.VariantDark)
}
