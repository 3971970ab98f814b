package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/spyglass-mcp/spyglass/ui/jsonedit"
)

// The JSON editor's token colours reach WCAG AA (4.5:1) against the
// editor's background with the window's theme, in both variants and
// when View › Theme forces one (variantTheme answers every variant with
// its own, so the editor must not trust the variant it is asked for).
func TestJSONEditorContrastMeetsWCAGAA(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		for _, th := range []fyne.Theme{newReadableTheme(), variantTheme{newReadableTheme(), v}} {
			for _, asked := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
				if _, forced := th.(variantTheme); !forced && asked != v {
					continue
				}
				bg := th.Color(theme.ColorNameInputBackground, asked)
				for _, k := range jsonedit.Kinds {
					if r := contrast(jsonedit.TokenColor(th, k, asked), bg); r < 4.5 {
						t.Errorf("%T variant %d (asked %d): %s is %.2f:1 on the editor, want at least 4.5:1", th, v, asked, k, r)
					}
				}
			}
		}
	}
}
