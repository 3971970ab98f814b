//go:build linux

package ui

import "testing"

// BenchmarkThousandResources: the Resources screen's steps on a server of
// 10,000 resources (issue #17, goal <= 100 ms each), as
// BenchmarkThousandTools measures the tools screen's: list (the listing
// grouped by URI folder, filtered and laid out), search (one query;
// keystroke-max-ms the slowest keystroke of typing it), open (selecting
// the last resource to its detail). -ms is wall time, -cpu-ms the CPU the
// process spent in the step.
func BenchmarkThousandResources(b *testing.B) {
	ss := benchScreens(b, "Resources", func(ss *serverScreens) bool { return len(ss.resources.rows) > 0 })
	res := manyResources(10000)
	tmpl := []ResourceTemplate{{URITemplate: "test://records/{id}", Name: "record"}}
	const query, last = "group99/9999", "res:test://records/group99/9999"
	for b.Loop() {
		r := ss.resources
		st := measureScreenSteps(b, r.search, query, func() {
			r.cur = nil
			listResources(ss, res, tmpl)
		}, func() { r.selectKey(last) })
		if r.cur == nil || r.cur.key() != last {
			b.Fatal("the last resource did not open")
		}
		st.report(b, "res-", "open")
	}
}
