package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

func TestTempApp(t *testing.T) { _ = test.NewTempApp(t) }
