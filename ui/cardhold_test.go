package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// permanent is a failure another attempt would repeat (a command that is
// not there), so the window does not retry it.
type permanent struct{ error }

func (permanent) Permanent() bool { return true }

// TestServerCardsHoldStill: a server that connects, fails, retries or
// connects keeps its card's height, so the cards below it do not move
// under the pointer, and its card never asks for more width than the
// list has, so the list's divider stays; the centre pane's button keeps
// its place from Connect to Cancel to Retry, whatever the error below it
// says (#12: the cards below moved 36–75 px, and the centred block moved
// with the error's length).
func TestServerCardsHoldStill(t *testing.T) {
	b := newFakeBackend("one", "two")
	// a retry that waits an hour stays "retrying" until it is cancelled
	w := newTestWindow(t, b, &Options{RetryDelay: time.Hour, ConnectAttempts: 3})
	c, _ := b.Open("one", nil)
	fc := c.(*fakeConn)
	one := w.server("one")
	Sync(func() { w.selectServer(one) })

	type look struct {
		cardH, twoY, listW, cardMinW float32
		button                       string
		buttonAt                     fyne.Position
		texts                        string
	}
	snap := func() (l look) {
		Sync(func() {
			w.win.Content().Refresh()
			drv := fyne.CurrentApp().Driver()
			card, two := w.list.cards[one], w.list.cards[w.server("two")]
			l.cardH, l.cardMinW = card.Size().Height, card.MinSize().Width
			l.twoY = drv.AbsolutePositionForObject(two).Y
			l.listW = card.Size().Width
			l.texts = texts(card)
			walkVisible(w.middle, func(o fyne.CanvasObject) {
				if b, ok := esc.AsButton(o); ok && l.button == "" && b.Importance == widget.HighImportance {
					l.button, l.buttonAt = b.Text, drv.AbsolutePositionForObject(b)
				}
			})
		})
		return l
	}
	base := snap()
	if base.button != "Connect" {
		t.Fatalf("the centre pane of a server not connected offers %q, want Connect", base.button)
	}
	check := func(state string, want []string, button string) {
		t.Helper()
		got := snap()
		if got.cardH != base.cardH || got.twoY != base.twoY {
			t.Errorf("%s: the card is %v tall (was %v) and the card below it at y=%v (was %v)", state, got.cardH, base.cardH, got.twoY, base.twoY)
		}
		if got.cardMinW > got.listW {
			t.Errorf("%s: the card asks for %v of the list's %v", state, got.cardMinW, got.listW)
		}
		for _, s := range want {
			if !strings.Contains(got.texts, s) {
				t.Errorf("%s: the card lacks %q:\n%s", state, s, got.texts)
			}
		}
		if got.button != button || got.buttonAt != base.buttonAt {
			t.Errorf("%s: the centre pane's button is %q at %v, want %q where Connect was, at %v", state, got.button, got.buttonAt, button, base.buttonAt)
		}
	}

	// connecting: the toggle says so and Cancel comes at the card's end
	// (the fake reads its failure as it starts connecting: the one it
	// will return once unblocked)
	long := strings.Repeat("the server said no and then some more words ", 6)
	fc.block, fc.fail = make(chan struct{}), errors.New(long)
	Sync(one.onConnect)
	waitFor(t, "connecting", func() bool { return one.state.State == StateConnecting })
	check("connecting", []string{"Connecting…", "[Cancel]", "server-one"}, "Cancel")

	// failed with a long cause, a retry waiting: the cause takes the
	// command's line, the card counts the retries
	close(fc.block)
	waitFor(t, "retrying", func() bool { return one.state.State == StateFailed && one.retrying })
	check("retrying", []string{"Failed", "the server said no", "retry 2 of 3", "[Cancel]"}, "Cancel")

	// failed for good: Retry where Cancel was, the whole error below the
	// centre pane's buttons, with Edit settings beside Retry
	Sync(one.onCancel)
	fc.mu.Lock()
	fc.block, fc.fail = nil, permanent{errors.New(long + long)}
	fc.mu.Unlock()
	Sync(one.onConnect)
	waitFor(t, "failed", func() bool { return one.state.State == StateFailed && !one.retrying })
	check("failed", []string{"Failed", "the server said no", "[Retry]"}, "Retry")
	var middle string
	Sync(func() { middle = texts(w.middle) })
	if !strings.Contains(middle, "[Edit settings…]") || !strings.Contains(middle, "Not retried by itself") {
		t.Errorf("the failed pane lacks Edit settings or says nothing of retrying:\n%s", middle)
	}
	// its Show more opens the whole error below the buttons
	Sync(func() {
		if more := findButton(w.middle, "Show more"); more != nil {
			more.OnTapped()
		} else {
			t.Error("the long error has no Show more")
		}
	})
	check("failed, the whole error shown", nil, "Retry")

	// connected: the command is back in its line
	fc.mu.Lock()
	fc.fail = nil
	fc.mu.Unlock()
	Sync(one.onRetry)
	waitFor(t, "connected", func() bool { return one.state.State == StateConnected })
	got := snap()
	if got.cardH != base.cardH || got.twoY != base.twoY || !strings.Contains(got.texts, "server-one") || !strings.Contains(got.texts, "Connected") {
		t.Errorf("connected: the card is %v tall at y=%v below (was %v, %v):\n%s", got.cardH, got.twoY, base.cardH, base.twoY, got.texts)
	}
}
