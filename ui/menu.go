package ui

import (
	"image/color"
	"runtime"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/ui/esc"
)

// TroubleshootingURL is the page Help → Troubleshooting opens: one anchor
// per error kind, each with what to try.
const TroubleshootingURL = "https://github.com/spyglass-mcp/spyglass/blob/main/docs/TROUBLESHOOTING.md"

// shortcutHelp is what Help → Keyboard shortcuts lists (mod is Ctrl or ⌘).
var shortcutHelp = [][2]string{
	{"mod+Enter", "Run the selected tool, get the prompt, read the resource"},
	{"mod+K", "Command palette: servers, tools, prompts, resources, actions"},
	{"mod+F", "Search (tools, logs, or the inspector's events)"},
	{"mod+B", "Show or hide the server list"},
	{"mod+I", "Show or hide the inspector"},
	{"mod+O", "Open a trace file (File → Open trace…)"},
	{"mod+Q", "Quit: disconnect every server and close Spyglass"},
	{"Esc", "Close the dialog"},
}

// addShortcuts installs the main menu, whose shortcuts work even while a
// text field has the focus, and the same shortcuts on the canvas for when
// no menu bar is shown.
func (w *Window) addShortcuts() {
	mod, modName := shortcutMod()
	key := func(it *fyne.MenuItem, k fyne.KeyName) *fyne.MenuItem {
		it.Shortcut = &desktop.CustomShortcut{KeyName: k, Modifier: mod}
		action := it.Action
		w.win.Canvas().AddShortcut(it.Shortcut, func(fyne.Shortcut) { action() })
		return it
	}
	add := fyne.NewMenuItem("Add server…", w.list.onAdd)
	paste := fyne.NewMenuItem("Import config from clipboard", w.list.onPasteImport)
	edit := fyne.NewMenuItem("Edit…", w.onEditServer)
	duplicate := fyne.NewMenuItem("Duplicate", w.onDuplicateServer)
	tapIn := fyne.NewMenuItem("Tap this server in…", w.onTapInServer)
	remove := fyne.NewMenuItem("Remove…", w.onRemoveServer)
	connect := fyne.NewMenuItem("Connect", w.onConnectServer)
	disconnect := fyne.NewMenuItem("Disconnect", w.onDisconnectServer)
	clearOAuth := fyne.NewMenuItem("Clear OAuth state", w.onClearOAuthServer)
	run := key(fyne.NewMenuItem("Run tool", w.onRunAction), fyne.KeyReturn)
	cancel := fyne.NewMenuItem("Cancel call", w.onCancelTool)
	saveCall := fyne.NewMenuItem("Save last call to collection…", w.onSaveLastCall)
	matrix := fyne.NewMenuItem("Protocol matrix of last call…", w.onProtocolMatrix)
	w.menuState = func() map[*fyne.MenuItem]bool {
		on := w.menuEnabled(add, paste, connect, disconnect, edit, remove, clearOAuth, run, cancel, saveCall, matrix)
		// the card menu's own two, for the same server
		on[duplicate] = on[edit]
		_, taps := w.be.(Tapper)
		on[tapIn] = taps && w.selected != nil && w.list.cards[w.selected] != nil
		return on
	}
	w.detachItem = fyne.NewMenuItem("Detach inspector", w.onDetachInspector)
	w.harItem = fyne.NewMenuItem(harLabel, w.onExportHAR)
	themes := fyne.NewMenuItem("Theme", nil)
	w.themeItems = map[string]*fyne.MenuItem{
		"light":  fyne.NewMenuItem("Light", func() { w.setTheme("light") }),
		"dark":   fyne.NewMenuItem("Dark", func() { w.setTheme("dark") }),
		"system": fyne.NewMenuItem("System", func() { w.setTheme("system") }),
	}
	themes.ChildMenu = fyne.NewMenu("", w.themeItems["light"], w.themeItems["dark"], w.themeItems["system"])
	w.markTheme(w.app.Preferences().StringWithFallback(prefTheme, "system"))
	// Quit is ours, so that it disconnects the servers first (Fyne would
	// add one of its own to the first menu, without a shortcut).
	quit := key(fyne.NewMenuItem("Quit", w.quit), fyne.KeyQ)
	quit.IsQuit = true
	w.win.SetMainMenu(fyne.NewMainMenu(
		fyne.NewMenu("File", key(fyne.NewMenuItem("Open trace…", w.onOpenTraceDialog), fyne.KeyO),
			fyne.NewMenuItem("Compare sessions…", w.onCompareSessions),
			fyne.NewMenuItem("Replay against…", w.onReplayAgainst),
			w.harItem,
			fyne.NewMenuItem("Run collection…", w.onRunCollectionDialog),
			fyne.NewMenuItemSeparator(), quit),
		fyne.NewMenu("Servers", add, paste, fyne.NewMenuItemSeparator(),
			connect, disconnect, fyne.NewMenuItemSeparator(), edit, duplicate, remove, clearOAuth,
			fyne.NewMenuItemSeparator(), tapIn),
		fyne.NewMenu("View",
			key(fyne.NewMenuItem("Server list", w.ToggleServerList), fyne.KeyB),
			key(fyne.NewMenuItem("Inspector", w.ToggleInspector), fyne.KeyI),
			key(fyne.NewMenuItem("Search", w.onFocusSearch), fyne.KeyF),
			key(fyne.NewMenuItem(paletteLabel, w.onCommandPalette), fyne.KeyK),
			w.detachItem,
			themes),
		fyne.NewMenu("Tools", run, cancel, saveCall, matrix),
		fyne.NewMenu("Settings", fyne.NewMenuItem("Sampling profiles…", w.onEditProfiles),
			fyne.NewMenuItem("Event log memory…", w.onEventMemory)),
		fyne.NewMenu("Help",
			fyne.NewMenuItem("Keyboard shortcuts", func() { w.onShortcutHelp(modName) }),
			fyne.NewMenuItem("Troubleshooting", w.onTroubleshooting),
			fyne.NewMenuItem("Report a problem…", w.onReportProblem),
			fyne.NewMenuItem("About Spyglass", w.onAbout)),
	))
	w.updateHARItem()
	w.updateMenu()
}

// shortcutMod is the modifier of the window's shortcuts and its name as
// Help → Keyboard shortcuts and the hints beside buttons write it: Ctrl,
// or ⌘ on macOS.
func shortcutMod() (fyne.KeyModifier, string) {
	if runtime.GOOS == "darwin" {
		return fyne.KeyModifierSuper, "⌘"
	}
	return fyne.KeyModifierControl, "Ctrl"
}

// menuEnabled says which of the state-dependent menu items do something
// now: the Servers menu's for the selected server as it stands, Run tool
// when the screen shown has its main action ready (see mainAction),
// Cancel call while a tool's call runs, Save last call and Protocol matrix
// once the server made a call. The items come in the order addShortcuts
// lists them.
func (w *Window) menuEnabled(add, paste, connect, disconnect, edit, remove, clearOAuth, run, cancel, saveCall, matrix *fyne.MenuItem) map[*fyne.MenuItem]bool {
	ro, _ := w.be.ReadOnly()
	s := w.selected
	if s != nil && w.list.cards[s] == nil {
		s = nil // removed
	}
	live, st := false, StateDisconnected
	if s != nil {
		st = s.state.State
		live = st == StateConnected || st == StateConnecting || st == StateAuthorizing || s.retrying || s.dropped
	}
	recorded := s != nil && s.cfg.Recorded != ""
	_, clears := w.be.(OAuthClearer)
	var tools *toolsScreen
	ready := false
	if s != nil && s.screens != nil {
		tools = s.screens.tools
		_, ready = s.screens.mainAction()
	}
	// the last call items need a call of the server's (the inspector sees
	// every one sent, the JSON-RPC tester's too)
	called := s != nil && w.inspector != nil && w.inspector.hasCall(s.cfg.Name)
	return map[*fyne.MenuItem]bool{
		add:        !ro,
		paste:      !ro,
		connect:    s != nil && !recorded && (st == StateDisconnected || st == StateFailed) && !s.retrying,
		disconnect: s != nil && !recorded && live,
		edit:       s != nil && !ro,
		remove:     s != nil && !ro,
		clearOAuth: s != nil && clears && s.cfg.Transport != "" && s.cfg.Transport != "stdio",
		run:        ready,
		cancel:     tools != nil && tools.running != nil,
		saveCall:   s != nil && (recorded || called),
		matrix:     s != nil && !recorded && called,
	}
}

// updateMenu turns the state-dependent menu items on and off as the
// selected server, its connection and its tool call change, so that none
// is offered that would only answer "Select a server first" or do
// nothing. The menu bar is not rebuilt: Fyne's MainMenu.Refresh builds
// it anew, which closed a menu the user had open when a call ended or a
// connection changed under it. A menu draws its items' Disabled each time
// it opens, and an item tapped checks it then, so setting it is enough.
func (w *Window) updateMenu() {
	if w.menuState == nil {
		return // the menu is not built yet
	}
	for it, on := range w.menuState() {
		it.Disabled = !on
	}
}

// quit disconnects every server and ends the app (File → Quit, mod+Q).
// UI thread.
func (w *Window) quit() {
	w.Close()
	w.app.Quit()
}

// selectedCard is the selected server's card, or nil (with a toast saying
// why nothing happens).
func (w *Window) selectedCard() *serverCard {
	if w.selected == nil || w.list.cards[w.selected] == nil {
		w.toast("error", "Select a server first.")
		return nil
	}
	return w.list.cards[w.selected]
}

// onDuplicateServer is Servers › Duplicate: the card menu's, for the
// selected server.
func (w *Window) onDuplicateServer() {
	if c := w.selectedCard(); c != nil {
		c.onDuplicate()
	}
}

// onTapInServer is Servers › Tap this server in…: the card menu's, for
// the selected server.
func (w *Window) onTapInServer() {
	if c := w.selectedCard(); c != nil {
		c.onTapIn()
	}
}

func (w *Window) onEditServer() {
	if c := w.selectedCard(); c != nil {
		c.onEdit()
	}
}

func (w *Window) onRemoveServer() {
	if c := w.selectedCard(); c != nil {
		c.onRemove()
	}
}

// onClearOAuthServer forgets the selected server's sign-in (Servers menu).
func (w *Window) onClearOAuthServer() {
	if c := w.selectedCard(); c != nil {
		c.onClearOAuth()
	}
}

func (w *Window) onConnectServer() {
	if c := w.selectedCard(); c != nil {
		c.s.onConnect()
	}
}

func (w *Window) onDisconnectServer() {
	if c := w.selectedCard(); c != nil {
		c.s.disconnect()
	}
}

// onCancelTool cancels the selected server's running tool call.
func (w *Window) onCancelTool() {
	if w.selected != nil && w.selected.screens != nil {
		w.selected.screens.tools.onCancel()
	}
}

// onFocusSearch focuses the search of what is in front: the Tools,
// Resources, Prompts or Logs screen's, else the inspector's.
func (w *Window) onFocusSearch() {
	if s := w.selected; s != nil && s.screens != nil && s.screens.tabs.Selected() != nil {
		switch s.screens.tabs.Selected().Text {
		case "Tools":
			w.win.Canvas().Focus(s.screens.tools.search)
			return
		case "Resources":
			w.win.Canvas().Focus(s.screens.resources.search)
			return
		case "Prompts":
			w.win.Canvas().Focus(s.screens.prompts.search)
			return
		case "Logs":
			w.win.Canvas().Focus(s.screens.logs.search)
			return
		}
	}
	if !w.inspOpen {
		w.ToggleInspector()
	}
	if w.inspWin != nil {
		w.inspWin.RequestFocus()
		w.inspWin.Canvas().Focus(w.inspector.search)
		return
	}
	w.win.Canvas().Focus(w.inspector.search)
}

// setTheme switches to the light or dark variant, or back to the system's
// ("system"), and remembers the choice.
func (w *Window) setTheme(name string) {
	t := w.baseTheme
	switch name {
	case "light":
		t = variantTheme{t, theme.VariantLight}
	case "dark":
		t = variantTheme{t, theme.VariantDark}
	}
	w.app.Settings().SetTheme(t)
	if w.list != nil { // nil while restoreTheme runs, before the window is built
		w.list.refresh() // the cards' colours are set by hand
	}
	w.app.Preferences().SetString(prefTheme, name)
	w.markTheme(name)
	if w.win != nil && w.win.MainMenu() != nil {
		w.win.MainMenu().Refresh()
	}
}

// markTheme checks View → Theme's item for name (light, dark, system)
// and unchecks the others, so the menu says which theme is on.
func (w *Window) markTheme(name string) {
	for n, it := range w.themeItems {
		it.Checked = n == name
	}
}

// variantTheme draws a theme in one variant whatever the system prefers.
type variantTheme struct {
	fyne.Theme
	v fyne.ThemeVariant
}

// Color implements fyne.Theme.
func (t variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.v)
}

func (w *Window) onShortcutHelp(mod string) {
	var b strings.Builder
	for _, s := range shortcutHelp {
		b.WriteString("**" + strings.ReplaceAll(s[0], "mod", mod) + "** — " + s[1] + "\n\n")
	}
	esc.Show(esc.NewCustom("Keyboard shortcuts", "Close", widget.NewRichTextFromMarkdown(b.String()), w.win), w.win)
}

// onTroubleshooting opens the troubleshooting guide in the browser and
// shows its address with Copy and Open, as the sign-in does: the opener
// may start no browser and still report success.
func (w *Window) onTroubleshooting() {
	w.openURL(TroubleshootingURL)
	room := canvas.NewRectangle(color.Transparent)
	room.SetMinSize(fyne.NewSize(fyne.Min(720, w.win.Canvas().Size().Width-120), 0)) // the address on one line where it fits
	content := container.NewVBox(
		container.NewStack(room, wrapLabel("The guide opens in your browser. If none opened, copy the address into one:")),
		w.addressBox(TroubleshootingURL))
	esc.Show(esc.NewCustom("Troubleshooting guide", "Close", content, w.win), w.win)
}

func (w *Window) onAbout() {
	v := w.opts.Version
	if v == "" {
		v = "(development build)"
	}
	esc.Show(esc.NewInformation("About Spyglass", "Spyglass "+v+"\nAn inspector for MCP servers.", w.win), w.win)
}
