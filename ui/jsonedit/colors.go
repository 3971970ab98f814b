package jsonedit

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Token colours, chosen to reach WCAG AA (4.5:1) against the theme's
// input background in each variant (ui/jsonedit's and ui's contrast tests
// check them).
var (
	lightColors = map[Kind]color.NRGBA{
		Key:     {R: 0x0a, G: 0x4f, B: 0x9e, A: 0xff},
		String:  {R: 0x11, G: 0x6b, B: 0x2c, A: 0xff},
		Number:  {R: 0xa3, G: 0x3d, B: 0x00, A: 0xff},
		Literal: {R: 0x7a, G: 0x3d, B: 0xc8, A: 0xff},
		Other:   {R: 0xb3, G: 0x1d, B: 0x28, A: 0xff},
	}
	darkColors = map[Kind]color.NRGBA{
		Key:     {R: 0x79, G: 0xc0, B: 0xff, A: 0xff},
		String:  {R: 0x7e, G: 0xe7, B: 0x87, A: 0xff},
		Number:  {R: 0xff, G: 0xa6, B: 0x57, A: 0xff},
		Literal: {R: 0xd2, G: 0xa8, B: 0xff, A: 0xff},
		Other:   {R: 0xff, G: 0x7b, B: 0x72, A: 0xff},
	}
)

// TokenColor is the colour a token of kind k is drawn in with theme th
// and variant v. Punctuation and spaces take the theme's foreground. The
// light or dark set is chosen by the editor's background, not by v: the
// window's View › Theme forces a variant that the app's settings do not
// report.
func TokenColor(th fyne.Theme, k Kind, v fyne.ThemeVariant) color.Color {
	m := darkColors
	if luminance(th.Color(theme.ColorNameInputBackground, v)) > 0.4 {
		m = lightColors
	}
	if c, ok := m[k]; ok {
		return c
	}
	return th.Color(theme.ColorNameForeground, v)
}

// Kinds are the token kinds that are drawn (every kind but Space).
var Kinds = []Kind{Key, String, Number, Literal, Punct, Other}

// String names the kind ("key", "string", …).
func (k Kind) String() string {
	switch k {
	case Space:
		return "space"
	case Key:
		return "key"
	case String:
		return "string"
	case Number:
		return "number"
	case Literal:
		return "literal"
	case Punct:
		return "punctuation"
	default:
		return "other"
	}
}

// Contrast is the WCAG 2 contrast ratio of a against b (1 to 21).
func Contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is the WCAG 2 relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}
