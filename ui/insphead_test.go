package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// TestInspectorHeaderFollowsTheSplit: at 1024×700 the inspector is as
// wide as the split's offset makes it, not as its header's words (Inspector,
// Pause, Clear, Trace took ~330 px and left the screens ~430); its actions
// are then icons, each still there and working, and at 1280×800 they read
// with their words again (#12).
func TestInspectorHeaderFollowsTheSplit(t *testing.T) {
	w, _, _ := connected(t, nil)
	in := w.inspector
	var row *fyne.Container
	Sync(func() {
		row = in.obj.(*fyne.Container).Objects[1].(*fyne.Container).Objects[0].(*fyne.Container)
		w.win.Resize(fyne.NewSize(1024, 700))
	})
	Sync(func() {
		body := w.split.Size().Width
		want := float32(1-w.split.Offset)*body - 20 // the divider's share
		if got := in.obj.Size().Width; got < want-10 || got > want+20 {
			t.Errorf("at 1024×700 the inspector is %v px wide, want about %v (offset %.2f of %v)", got, want, w.split.Offset, body)
		}
		if c := w.center.Size().Width; c < 500 {
			t.Errorf("at 1024×700 the screens get %v px, want 500 or more", c)
		}
		if row.Objects[1].Visible() || !row.Objects[2].Visible() {
			t.Errorf("at %v px the header shows the actions with words", row.Size().Width)
		}
		test.Tap(in.pause.icon)
		if !in.paused {
			t.Error("the Pause icon does not pause")
		}
		test.Tap(in.pause.icon)
		w.win.Resize(fyne.NewSize(1280, 800))
	})
	Sync(func() {
		if !row.Objects[1].Visible() || row.Objects[2].Visible() || !row.Objects[0].Visible() {
			t.Errorf("at 1280×800 (header %v px) the actions are icons only or the title is gone", row.Size().Width)
		}
	})
}

// TestInspectorHeaderWordsReturnAfterResume: "Resume" is wider than
// "Pause", so a header that just fits the words goes to icons while
// paused; resuming brings the words back at once, not at the next resize
// (#12).
func TestInspectorHeaderWordsReturnAfterResume(t *testing.T) {
	w, _, _ := connected(t, nil)
	in := w.inspector
	row := in.head
	Sync(func() {
		w.win.Resize(fyne.NewSize(1280, 800))
	})
	Sync(func() {
		title, full := row.Objects[0], row.Objects[1]
		fit := fyne.NewSize(title.MinSize().Width+theme.Padding()+full.MinSize().Width, row.Size().Height)
		row.Resize(fit)
		if !full.Visible() {
			t.Fatalf("at %v px, the words' own width beside the title, the header shows icons", fit.Width)
		}
		test.Tap(in.pauseBtn)
		if full.Visible() {
			t.Errorf("while paused at %v px the header shows %q with words, wider than its row", fit.Width, in.pauseBtn.Text)
		}
		test.Tap(in.pause.icon)
		if !full.Visible() || row.Objects[2].Visible() {
			t.Errorf("after Resume at %v px the header stays on icons, though \"Pause\" fits", fit.Width)
		}
	})
}
