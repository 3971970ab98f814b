package requests

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestSamplingAudioSave: an audio block's Save… hands the decoded bytes
// and a file name to the queue's Save (the window's dialog and writer).
func TestSamplingAudioSave(t *testing.T) {
	newApp(t)
	type saved struct {
		name string
		data string
	}
	var got []saved
	q := NewQueue(&QueueOptions{
		Profiles:  &fakeStore{set: testProfiles()},
		Responder: fakeResponder{},
		Save:      func(name string, data []byte) { got = append(got, saved{name, string(data)}) },
	})
	q.AddSampling(plainSampling(), func(SamplingAnswer) {})
	if len(q.items) != 1 || q.items[0].sampling == nil {
		t.Fatalf("the request is not queued: %d items", len(q.items))
	}
	test.Tap(button(t, q.items[0].sampling.Details(), "Save…"))
	if len(got) != 1 || got[0].name != "sampling-audio.wav" || got[0].data != "RIFF....WAVE" {
		t.Fatalf("Save got %+v, want sampling-audio.wav with the decoded bytes", got)
	}
}

// TestSamplingAudioSaveOff: without Save the button is there but off.
func TestSamplingAudioSaveOff(t *testing.T) {
	p, _ := newSampling(t, plainSampling(), testProfiles())
	if b := button(t, p.Details(), "Save…"); !b.Disabled() {
		t.Error("Save… is enabled with nowhere to save")
	}
}
