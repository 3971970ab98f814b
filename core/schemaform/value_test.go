package schemaform

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestGetLargeObject checks member lookup above indexAbove members: the
// last member of a name wins, concurrent readers agree, and members
// appended later are found.
func TestGetLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"dup":0`)
	for i := range 2 * indexAbove {
		fmt.Fprintf(&b, `,"m%d":%d`, i, i)
	}
	b.WriteString(`,"dup":1}`)
	v, err := ParseValue([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if got := v.Get("dup"); got == nil || got.Str != "1" {
				t.Errorf("dup = %v, want the last member", got)
			}
			if got := v.Get(fmt.Sprintf("m%d", indexAbove)); got == nil || got.Str != fmt.Sprint(indexAbove) {
				t.Errorf("m%d = %v", indexAbove, got)
			}
			if v.Get("absent") != nil {
				t.Error("absent member found")
			}
		})
	}
	wg.Wait()
	v.Members = append(v.Members, Member{"late", Bool(true)})
	if got := v.Get("late"); got == nil || !got.Bool {
		t.Errorf("appended member: %v", got)
	}
}
