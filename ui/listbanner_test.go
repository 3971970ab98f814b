package ui

import (
	"testing"
	"time"
)

// TestListChangedBeforeTheListLeavesNoBanner: a list_changed read before
// the request for the list went out is in that list, so the list that
// arrives takes "List updated — Refresh" away (server-everything sends
// one right after initialize and the Tools screen called its fresh list
// stale); one read after the request started keeps it.
func TestListChangedBeforeTheListLeavesNoBanner(t *testing.T) {
	_, _, ss := connected(t, nil)
	type screen struct {
		name   string
		method string
		banner *listBanner
		list   func()
		listed func() bool
	}
	for _, s := range []screen{
		{"tools", "notifications/tools/list_changed", ss.tools.banner, func() { ss.tools.all = nil; ss.tools.loadPage("") }, func() bool { return len(ss.tools.all) > 0 }},
		{"prompts", "notifications/prompts/list_changed", ss.prompts.banner, func() { ss.prompts.prompts = nil; ss.prompts.loadPage("") }, func() bool { return len(ss.prompts.prompts) > 0 }},
		{"resources", "notifications/resources/list_changed", ss.resources.banner, func() { ss.resources.resources = nil; ss.resources.load(false) }, func() bool { return len(ss.resources.resources) > 0 }},
	} {
		Sync(func() {
			ss.onNotification(Notification{Method: s.method, Time: time.Now()})
			if !s.banner.visible() {
				t.Fatalf("%s: no banner after list_changed", s.name)
			}
			s.list() // the list is asked for after the change was read
		})
		waitFor(t, s.name+": the banner gone with the list that holds the change", func() bool { return !s.banner.visible() })

		Sync(func() {
			// a change read after the request started (its time is later
			// than any request's start): the list may not hold it
			ss.onNotification(Notification{Method: s.method, Time: time.Now().Add(time.Hour)})
			s.list()
		})
		waitFor(t, s.name+": the list again", s.listed)
		Sync(func() {
			if !s.banner.visible() {
				t.Errorf("%s: a change announced after the list was asked for lost its banner", s.name)
			}
		})
	}
}
