package esc

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The window's dialogs are made here rather than with Fyne's constructors
// of the same names. Fyne's dialogs make their Cancel/OK buttons as plain
// widget.Buttons, and once Tab puts the focus on one of them Fyne hands Esc
// to that button, which drops it; Fyne has no canvas-wide key hook that
// runs before the focused widget. These constructors take the same
// arguments and make the same buttons (same words, icons and importance)
// as esc Buttons, which pass Esc on to the dialog, so Esc cancels the
// dialog whatever has the focus. (Fyne's file and folder dialogs build
// their own buttons inside and cannot be made this way.)

// maxTextWidth and maxTextShare bound a text dialog's width, as Fyne's own
// text dialogs do.
const (
	maxTextWidth float32 = 600
	maxTextShare float32 = 0.9
)

// NewCustom is dialog.NewCustom with its dismiss button an esc Button.
func NewCustom(title, dismiss string, content fyne.CanvasObject, parent fyne.Window) *dialog.CustomDialog {
	d := dialog.NewCustomWithoutButtons(title, content, parent)
	d.SetButtons([]fyne.CanvasObject{NewButton(dismiss, hideUnfocused(parent, d.Hide))})
	return d
}

// ConfirmDialog is a dialog with a dismiss and a confirm button, made by
// NewCustomConfirm, NewConfirm and NewForm. Its callback gets true when
// the confirm button (or Confirm) closed it, false when anything else did:
// the dismiss button, Esc, Hide.
type ConfirmDialog struct {
	*dialog.CustomDialog
	confirm   *Button
	dismiss   *Button
	confirmed bool
	parent    fyne.Window
	sized     bool
	// textWidth is the width a text dialog's message wants on one line (0
	// for other dialogs).
	textWidth float32
}

// NewCustomConfirm is dialog.NewCustomConfirm with esc Buttons.
func NewCustomConfirm(title, confirm, dismiss string, content fyne.CanvasObject, callback func(bool), parent fyne.Window) *ConfirmDialog {
	d := &ConfirmDialog{CustomDialog: dialog.NewCustomWithoutButtons(title, content, parent), parent: parent}
	d.dismiss = NewButtonWithIcon(dismiss, theme.CancelIcon(), hideUnfocused(parent, d.CustomDialog.Hide))
	d.confirm = NewButtonWithIcon(confirm, theme.ConfirmIcon(), d.Confirm)
	d.confirm.Importance = widget.HighImportance
	d.SetButtons([]fyne.CanvasObject{d.dismiss, d.confirm})
	d.CustomDialog.SetOnClosed(func() {
		ok := d.confirmed
		d.confirmed = false
		if callback != nil {
			callback(ok)
		}
	})
	return d
}

// NewConfirm is dialog.NewConfirm with esc Buttons, and with the action
// named on its button (confirm, e.g. "Remove") beside Cancel instead of a
// bare Yes and No: a desktop user reads what the button does.
func NewConfirm(title, message, confirm string, callback func(bool), parent fyne.Window) *ConfirmDialog {
	d := NewCustomConfirm(title, confirm, lang.L("Cancel"), wrappedText(message), callback, parent)
	d.SetIcon(theme.QuestionIcon())
	d.textWidth = textWidth(message)
	return d
}

// NewInformation is dialog.NewInformation (a message with OK) with an esc
// Button.
func NewInformation(title, message string, parent fyne.Window) dialog.Dialog {
	d := &ConfirmDialog{CustomDialog: dialog.NewCustomWithoutButtons(title, wrappedText(message), parent), parent: parent}
	d.dismiss = NewButton(lang.L("OK"), hideUnfocused(parent, d.CustomDialog.Hide))
	d.SetButtons([]fyne.CanvasObject{d.dismiss})
	d.SetIcon(theme.InfoIcon())
	d.textWidth = textWidth(message)
	return d
}

// NewForm is dialog.NewForm with esc Buttons: the confirm button is
// enabled while the form's items validate.
func NewForm(title, confirm, dismiss string, items []*widget.FormItem, callback func(bool), parent fyne.Window) *ConfirmDialog {
	form := widget.NewForm(items...)
	d := NewCustomConfirm(title, confirm, dismiss, form, callback, parent)
	d.setSubmitState(form.Validate())
	form.SetOnValidationChanged(d.setSubmitState)
	return d
}

func (d *ConfirmDialog) setSubmitState(err error) {
	if err != nil {
		d.confirm.Disable()
	} else {
		d.confirm.Enable()
	}
}

// Confirm closes the dialog as its confirm button does (a disabled one
// does nothing).
func (d *ConfirmDialog) Confirm() {
	if d.confirm == nil || d.confirm.Disabled() {
		return
	}
	d.confirmed = true
	hideUnfocused(d.parent, d.CustomDialog.Hide)()
}

// SetConfirmText changes the confirm button's words.
func (d *ConfirmDialog) SetConfirmText(label string) {
	if d.confirm != nil {
		d.confirm.SetText(label)
	}
}

// SetDismissText changes the dismiss button's words.
func (d *ConfirmDialog) SetDismissText(label string) {
	d.dismiss.SetText(label)
}

// SetConfirmImportance changes how the confirm button stands out.
func (d *ConfirmDialog) SetConfirmImportance(importance widget.Importance) {
	if d.confirm != nil {
		d.confirm.Importance = importance
		d.confirm.Refresh()
	}
}

// SetDismissImportance changes how the dismiss button stands out: High
// makes it the one the eye goes to, for a confirmation whose safe answer
// is to go back.
func (d *ConfirmDialog) SetDismissImportance(importance widget.Importance) {
	d.dismiss.Importance = importance
	d.dismiss.Refresh()
}

// Resize sets the dialog's size (a text dialog then keeps it).
func (d *ConfirmDialog) Resize(size fyne.Size) {
	d.sized = true
	d.CustomDialog.Resize(size)
}

// Show shows the dialog; a text dialog not resized before is as wide as
// its message on one line, within 600 px and 90% of the window.
func (d *ConfirmDialog) Show() {
	if d.textWidth > 0 && !d.sized {
		w := fyne.Min(d.textWidth, maxTextWidth)
		if cw := d.parent.Canvas().Size().Width; cw > 0 {
			w = fyne.Min(w, cw*maxTextShare)
		}
		d.CustomDialog.Resize(fyne.NewSize(w, d.MinSize().Height))
	}
	d.CustomDialog.Show()
}

func wrappedText(message string) fyne.CanvasObject {
	return &widget.Label{Text: message, Alignment: fyne.TextAlignCenter, Wrapping: fyne.TextWrapWord}
}

// textWidth is the width of a dialog that shows message on one line.
func textWidth(message string) float32 {
	const padWidth = 32 // the dialog's own side padding
	return widget.NewLabel(message).MinSize().Width + padWidth + theme.Padding()*2
}
