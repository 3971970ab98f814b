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
