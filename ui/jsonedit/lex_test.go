package jsonedit

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`  "k": 1.5e3,`, `space:"  " key:"\"k\"" punctuation:":" space:" " number:"1.5e3" punctuation:","`},
		{`"a" : "b\"c"}`, `key:"\"a\"" space:" " punctuation:":" space:" " string:"\"b\\\"c\"" punctuation:"}"`},
		{`[true, false, null, -2]`, `punctuation:"[" literal:"true" punctuation:"," space:" " literal:"false" punctuation:"," space:" " literal:"null" punctuation:"," space:" " number:"-2" punctuation:"]"`},
		{`  "v": "unterm`, `space:"  " key:"\"v\"" punctuation:":" space:" " string:"\"unterm"`},
		{`tru // é`, `other:"tru" space:" " other:"//" space:" " other:"é"`},
		{`"\`, `string:"\"\\"`},
		{``, ``},
	} {
		var got []string
		for _, tok := range Line(c.in) {
			got = append(got, tok.Kind.String()+":"+quote(c.in[tok.Start:tok.End]))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("Line(%q)\n got %s\nwant %s", c.in, g, c.want)
		}
	}
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
