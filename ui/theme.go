package ui

import (
	_ "embed"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// readableTheme is Fyne's default theme with text colours that meet WCAG AA
// (4.5:1) against the window and entry backgrounds in both variants. Fyne
// draws low-importance labels (helper text, hints, timestamps) in its
// "disabled" colour, which is about 1.3:1 by default, and its light
// placeholder, error, warning and success colours are too pale on white;
// its control outlines (unticked boxes, unselected radios) are drawn at
// 3:1 (WCAG's non-text contrast) instead of about 1.2:1.
type readableTheme struct{ fyne.Theme }

func newReadableTheme() fyne.Theme { return readableTheme{theme.DefaultTheme()} }

// The monospace face is Noto Sans Mono (fonts/, SIL Open Font License,
// fonts/OFL.txt), the monospace sibling of Fyne's Noto Sans text face,
// with its line metrics. Fyne's own, DejaVu Sans Mono, has its underscore
// end exactly on the descender line, where Fyne's text image ends: "_"
// lost its last row of pixels, or all of them at a small size, and
// "node_modules" read "node modules" in commands, JSON and logs (#12).
// The file is the regular face cut to Latin, Greek, Cyrillic and the
// punctuation, arrows, maths and box drawing around them (fonts/README):
// the whole face, parsed, cost the window 4 MB more than DejaVu's, 2,702
// glyphs 0.3 MB less. Bold monospace is drawn regular, as Fyne's theme
// draws it.
var (
	//go:embed fonts/NotoSansMono-Regular.ttf
	monoRegularTTF []byte

	monoRegular = fyne.NewStaticResource("NotoSansMono-Regular.ttf", monoRegularTTF)
)

// Font implements fyne.Theme: Noto Sans Mono for monospace text, Fyne's
// faces for the rest.
func (t readableTheme) Font(s fyne.TextStyle) fyne.Resource {
	if s.Monospace {
		return monoRegular
	}
	return t.Theme.Font(s)
}

var (
	// the light theme's text: Fyne's #565656 was so near its placeholders
	// (#6b6b6b, as light as AA allows) that an example in an empty field
	// read as a value (#12); the dark theme's placeholders are its
	// secondary grey for the same reason
	lightText      = color.NRGBA{R: 0x26, G: 0x26, B: 0x26, A: 0xff}
	lightSecondary = color.NRGBA{R: 0x6b, G: 0x6b, B: 0x6b, A: 0xff}
	darkSecondary  = color.NRGBA{R: 0x94, G: 0x94, B: 0x94, A: 0xff}
	lightError     = color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}
	lightWarning   = color.NRGBA{R: 0x9a, G: 0x5b, B: 0x00, A: 0xff}
	lightSuccess   = color.NRGBA{R: 0x2e, G: 0x7d, B: 0x32, A: 0xff}
	// the outline of an unticked check box or unselected radio (and of
	// an entry): Fyne's is about 1.2:1 on white, so "☐ Off" and an
	// unselected "JSON" all but vanished in the light theme
	lightBorder = color.NRGBA{R: 0x85, G: 0x85, B: 0x85, A: 0xff}
	darkBorder  = color.NRGBA{R: 0x7a, G: 0x7a, B: 0x7a, A: 0xff}
)

// Color implements fyne.Theme.
func (t readableTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	light := v == theme.VariantLight
	switch n {
	case theme.ColorNameDisabled:
		if light {
			return lightSecondary
		}
		return darkSecondary
	case theme.ColorNamePlaceHolder:
		if light {
			return lightSecondary
		}
		return darkSecondary
	case theme.ColorNameError:
		if light {
			return lightError
		}
	case theme.ColorNameWarning:
		if light {
			return lightWarning
		}
	case theme.ColorNameSuccess:
		if light {
			return lightSuccess
		}
	case theme.ColorNameInputBorder:
		if light {
			return lightBorder
		}
		return darkBorder
	case theme.ColorNameForeground:
		if light {
			return menuShortcutSafe(lightText)
		}
		return menuShortcutSafe(t.Theme.Color(n, v))
	}
	return t.Theme.Color(n, v)
}

// shortcutAlpha is the 16-bit alpha of the text colour: opaque but for
// 53 of 65535. Fyne 2.7.1 draws a menu item's shortcut ("Ctrl+B") in the
// text colour at 95%, taking the colour's 16-bit alpha times 0.95 as an
// 8-bit one: an opaque colour's 62258 became 50 (0xF332's low byte), and
// the shortcuts were drawn at a fifth of their colour, 1.35:1 on the
// light menu (#12). This alpha comes out 0xff there, and if Fyne reads
// it right, at 95% of 0xff.
const shortcutAlpha = 0xffca

// menuShortcutSafe is the opaque colour c with shortcutAlpha: its 16-bit
// channels keep c's 8-bit ones in their low byte, which is what Fyne's
// menu takes of them (r, g, b drawn as c everywhere else: 0x5656 of
// 0xffca is c within a tenth of a step).
func menuShortcutSafe(c color.Color) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	if n.A != 0xff {
		return c
	}
	ch := func(v uint8) uint16 {
		x := uint16(v) * 0x101
		if x > shortcutAlpha { // premultiplied: not above the alpha
			x = shortcutAlpha&^0xff | uint16(v)
			if x > shortcutAlpha {
				x -= 0x100
			}
		}
		return x
	}
	return color.RGBA64{R: ch(n.R), G: ch(n.G), B: ch(n.B), A: shortcutAlpha}
}

// Icon implements fyne.Theme. Fyne's Tree marks an open branch with
// MoveDown (↓) and a closed one with NavigateNext (→), which read as the
// inspector's message directions (→ sent, ← received) beside its rows:
// the theme draws them as ▾ and ▸, the chevrons of the inspector's
// sections. The window's own buttons that mean "down" or "next" ask for
// the arrows themselves (arrowIcon).
func (t readableTheme) Icon(n fyne.ThemeIconName) fyne.Resource {
	switch n {
	case theme.IconNameMoveDown:
		return t.Theme.Icon(theme.IconNameArrowDropDown)
	case theme.IconNameNavigateNext:
		return t.Theme.Icon(theme.IconNameMenuExpand)
	}
	return t.Theme.Icon(n)
}

// arrowIcon is Fyne's own icon n (the ↓ of MoveDown, the → of
// NavigateNext), which readableTheme gives the trees' chevrons instead:
// for a button that moves something down or goes to the next thing.
func arrowIcon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }
