package requests

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func newEditor(t *testing.T) (*ProfilesEditor, *fakeStore, *[]ProfileSet) {
	e, store, saved, _ := newEditorWin(t)
	return e, store, saved
}

func newEditorWin(t *testing.T) (*ProfilesEditor, *fakeStore, *[]ProfileSet, fyne.Window) {
	t.Helper()
	newApp(t)
	store := &fakeStore{set: testProfiles()}
	e := NewProfilesEditor(store)
	var saved []ProfileSet
	e.OnSaved = func(ps ProfileSet) { saved = append(saved, ps) }
	win := window(t, scrolled(e.Object()), 720, 900)
	return e, store, &saved, win
}

func TestProfilesListAndActive(t *testing.T) {
	e, store, saved := newEditor(t)
	shown := texts(e.Object())
	for _, want := range []string{"Sampling Settings", "Mock/Template, no auto-respond, simple template · active", "Manual, no auto-respond", "calls tools"} {
		if !strings.Contains(shown, want) {
			t.Errorf("editor does not show %q:\n%s", want, shown)
		}
	}
	e.active.SetSelected("Manual Review")
	if store.saves != 1 || store.set.Active != "Manual Review" || len(*saved) != 1 {
		t.Fatalf("saves %d, active %q", store.saves, store.set.Active)
	}
}

func TestProfilesEditAndSave(t *testing.T) {
	e, store, saved, win := newEditorWin(t)
	e.selected = "Quick Mock"
	test.Tap(button(t, e.Object(), "Edit Selected"))
	if !e.editBox.Visible() || e.name.Text != "Quick Mock" {
		t.Fatal("edit fields not shown")
	}
	e.name.SetText("Detailed Mock")
	e.auto.SetChecked(true)
	e.template.SetText("Default answer to {{last_user_message}}")
	e.model.SetText("mock-2")
	e.stop.SetSelected(StopMaxTokens)
	test.Tap(button(t, e.Object(), "Add"))
	test.Tap(button(t, e.Object(), "Add"))
	e.rows[0].pattern.SetText("claude-*")
	e.rows[0].template.SetText("I'll analyze this as Claude would...")
	e.rows[1].pattern.SetText("gpt-*")
	e.rows[1].template.SetText("As an AI assistant, I can help...")
	capture(t, win, "profiles-editor")
	test.Tap(button(t, e.Object(), "Save Profile"))
	if store.saves != 1 || len(*saved) != 1 {
		t.Fatalf("saves %d: %s", store.saves, e.errLbl.Text)
	}
	got, ok := store.set.Get("Detailed Mock")
	want := Profile{Name: "Detailed Mock", Provider: ProviderMock, AutoRespond: true, Template: "Default answer to {{last_user_message}}",
		Model: "mock-2", StopReason: StopMaxTokens, Overrides: []Override{{"claude-*", "I'll analyze this as Claude would..."}, {"gpt-*", "As an AI assistant, I can help..."}}}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("saved %+v\nwant  %+v", got, want)
	}
	if _, old := store.set.Get("Quick Mock"); old || store.set.Active != "Detailed Mock" || len(store.set.Profiles) != 3 {
		t.Errorf("rename: %+v", store.set)
	}
	if e.editBox.Visible() || !strings.Contains(texts(e.Object()), "2 model-specific templates") {
		t.Errorf("after save:\n%s", texts(e.Object()))
	}
	capture(t, win, "profiles-saved")
}

func TestProfilesEditorErrors(t *testing.T) {
	e, store, _ := newEditor(t)
	test.Tap(button(t, e.Object(), "New Profile"))
	e.name.SetText("Quick Mock")
	test.Tap(button(t, e.Object(), "Save Profile"))
	if !strings.Contains(e.errLbl.Text, "already exists") || store.saves != 0 {
		t.Errorf("duplicate name: %q, saves %d", e.errLbl.Text, store.saves)
	}
	e.name.SetText("Human")
	e.provider.SetSelected("Manual")
	e.auto.SetChecked(true)
	test.Tap(button(t, e.Object(), "Save Profile"))
	if !strings.Contains(e.errLbl.Text, "cannot auto-respond") || store.saves != 0 {
		t.Errorf("manual auto: %q", e.errLbl.Text)
	}
	e.auto.SetChecked(false)
	store.fail = errors.New("disk full")
	test.Tap(button(t, e.Object(), "Save Profile"))
	if !strings.Contains(e.errLbl.Text, "could not be saved. Disk full") {
		t.Errorf("save error: %q", e.errLbl.Text)
	}
	store.fail = nil
	test.Tap(button(t, e.Object(), "Save Profile"))
	if store.saves != 1 || len(store.set.Profiles) != 4 || store.set.Profiles[3].Name != "Human" || store.set.Profiles[3].Provider != ProviderManual {
		t.Fatalf("saved %+v", store.set)
	}
}

func TestProfilesDelete(t *testing.T) {
	e, store, _ := newEditor(t)
	e.selected = "Quick Mock"
	test.Tap(button(t, e.Object(), "Delete"))
	if store.saves != 1 || len(store.set.Profiles) != 2 || store.set.Active != "Tool Caller" {
		t.Fatalf("after delete: %+v", store.set)
	}
}

// TestProfilesDeleteActiveNeverAutoAnswers: deleting the active profile
// makes one that asks the user active, never a mock that answers every
// request by itself, and says which; when only such mocks would be left,
// the delete is refused with what to do.
func TestProfilesDeleteActiveNeverAutoAnswers(t *testing.T) {
	newApp(t)
	set := ProfileSet{Active: "Manual Review", Profiles: []Profile{
		{Name: "Auto Mock", Provider: ProviderMock, AutoRespond: true, Template: "ok"},
		{Name: "Manual Review", Provider: ProviderManual},
		{Name: "Careful", Provider: ProviderManual},
	}}
	store := &fakeStore{set: set}
	e := NewProfilesEditor(store)
	window(t, scrolled(e.Object()), 720, 900)
	e.selected = "Manual Review"
	test.Tap(button(t, e.Object(), "Delete"))
	if store.set.Active != "Careful" || !strings.Contains(texts(e.Object()), "“Careful” is active now.") {
		t.Fatalf("after deleting the active profile: active %q, shown %q", store.set.Active, texts(e.Object()))
	}
	e.selected = "Careful"
	test.Tap(button(t, e.Object(), "Delete"))
	if store.set.Active != "Careful" || len(store.set.Profiles) != 2 || !strings.Contains(e.errLbl.Text, "answer by themselves") {
		t.Fatalf("deleting the last profile that asks: active %q, %d profiles, message %q", store.set.Active, len(store.set.Profiles), e.errLbl.Text)
	}
}
