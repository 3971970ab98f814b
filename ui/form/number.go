package form

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// numberEntry is an entry that refuses characters a number (or an
// integer) cannot contain; what is left (a lone "-", "1e") is reported by
// the field check.
type numberEntry struct {
	widget.Entry
	integer bool
}

func newNumberEntry(integer bool) *numberEntry {
	e := &numberEntry{integer: integer}
	e.ExtendBaseWidget(e)
	return e
}

// TypedRune implements fyne.Focusable, dropping characters that cannot
// be part of the number.
func (e *numberEntry) TypedRune(r rune) {
	switch {
	case r >= '0' && r <= '9', r == '-':
	case !e.integer && (r == '.' || r == 'e' || r == 'E' || r == '+'):
	default:
		return
	}
	e.Entry.TypedRune(r)
}

// TypedShortcut implements fyne.Shortcutable, keeping only number
// characters of pasted text.
func (e *numberEntry) TypedShortcut(s fyne.Shortcut) {
	if p, ok := s.(*fyne.ShortcutPaste); ok && p.Clipboard != nil {
		var keep []rune
		for _, r := range p.Clipboard.Content() {
			if (r >= '0' && r <= '9') || r == '-' || (!e.integer && (r == '.' || r == 'e' || r == 'E' || r == '+')) {
				keep = append(keep, r)
			}
		}
		for _, r := range keep {
			e.Entry.TypedRune(r)
		}
		return
	}
	e.Entry.TypedShortcut(s)
}
