//go:build linux

package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// BenchmarkThousandResources: the Resources screen's steps on a server of
// 10,000 resources (issue #17, goal <= 100 ms each), as
// BenchmarkThousandTools measures the tools screen's: list (the listing
// grouped by URI folder, filtered and laid out), search (one query;
// keystroke-max-ms the slowest keystroke of typing it), open (selecting
// the last resource to its detail). -ms is wall time, -cpu-ms the CPU the
// process spent in the step.
func BenchmarkThousandResources(b *testing.B) {
	a := test.NewTempApp(b)
	be := newFakeBackend("fake")
	var w *Window
	Sync(func() {
		w = New(a, be, &Options{RetryDelay: 5 * time.Millisecond})
		w.win.Resize(fyne.NewSize(1280, 800))
		w.win.Show()
		w.server("fake").onConnect()
	})
	b.Cleanup(func() { Sync(w.Close) })
	var ss *serverScreens
	if err := poll(time.Minute, "connected", func() bool {
		ss = w.server("fake").screens
		return ss != nil && len(ss.resources.rows) > 0
	}); err != nil {
		b.Fatal(err)
	}
	if err := w.ShowScreen("Resources"); err != nil {
		b.Fatal(err)
	}
	res := manyResources(10000)
	tmpl := []ResourceTemplate{{URITemplate: "test://records/{id}", Name: "record"}}
	const query, last = "group99/9999", "res:test://records/group99/9999"
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	step := func(fn func()) (wall, cpu time.Duration) {
		c0, t0 := cpuTime(b), time.Now()
		fn()
		return time.Since(t0), cpuTime(b) - c0
	}
	for b.Loop() {
		var list, listCPU, search, searchCPU, keyMax, open, openCPU time.Duration
		Sync(func() {
			r := ss.resources
			r.search.SetText("")
			r.cur = nil
			list, listCPU = step(func() { listResources(ss, res, tmpl) })
			search, searchCPU = step(func() { r.search.SetText(query) })
			r.search.SetText("")
			for i := 1; i <= len(query); i++ {
				d, _ := step(func() { r.search.SetText(query[:i]) })
				keyMax = max(keyMax, d)
			}
			open, openCPU = step(func() { r.selectKey(last) })
			if r.cur == nil || r.cur.key() != last {
				b.Fatal("the last resource did not open")
			}
		})
		b.ReportMetric(ms(list), "res-list-ms")
		b.ReportMetric(ms(listCPU), "res-list-cpu-ms")
		b.ReportMetric(ms(search), "res-search-ms")
		b.ReportMetric(ms(searchCPU), "res-search-cpu-ms")
		b.ReportMetric(ms(keyMax), "res-keystroke-max-ms")
		b.ReportMetric(ms(open), "res-open-ms")
		b.ReportMetric(ms(openCPU), "res-open-cpu-ms")
	}
}
