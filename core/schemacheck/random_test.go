package schemacheck

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// schemaGen builds random schemas from the keywords this package
// implements (except format), for a structured differential test against
// santhosh-tekuri/jsonschema that reaches combinations byte-level fuzzing
// rarely builds.
type schemaGen struct {
	r     *rand.Rand
	draft Draft
}

var genNames = []string{"a", "b", "c", "ab", "ba"}

func (g *schemaGen) value(depth int) any {
	switch g.r.IntN(9) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return json.Number(fmt.Sprint(g.r.IntN(7) - 2))
	case 3:
		return json.Number([]string{"1.0", "0.5", "2.5", "-1.5", "1e1", "0.01", "19.99", "3.0"}[g.r.IntN(8)])
	case 4, 5:
		return []string{"", "a", "ab", "abc", "b", "ba", "x"}[g.r.IntN(7)]
	case 6, 7:
		if depth > 2 {
			return "a"
		}
		n := g.r.IntN(4)
		arr := make([]any, n)
		for i := range arr {
			arr[i] = g.value(depth + 1)
		}
		return arr
	default:
		if depth > 2 {
			return json.Number("1")
		}
		m := map[string]any{}
		for i := g.r.IntN(4); i > 0; i-- {
			m[genNames[g.r.IntN(len(genNames))]] = g.value(depth + 1)
		}
		return m
	}
}

func (g *schemaGen) num() json.Number {
	return json.Number([]string{"0", "1", "2", "3", "-1", "0.5", "1.5", "2.5"}[g.r.IntN(8)])
}

func (g *schemaGen) count() json.Number {
	return json.Number(fmt.Sprint(g.r.IntN(4)))
}

func (g *schemaGen) schema(depth int) any {
	if g.r.IntN(10) == 0 {
		return g.r.IntN(3) != 0
	}
	s := map[string]any{}
	n := 1 + g.r.IntN(3)
	if depth > 2 {
		n = 1
	}
	for i := 0; i < n; i++ {
		g.keyword(s, depth)
	}
	return s
}

func (g *schemaGen) list(depth int) []any {
	n := 1 + g.r.IntN(3)
	out := make([]any, n)
	for i := range out {
		out[i] = g.schema(depth + 1)
	}
	return out
}

func (g *schemaGen) keyword(s map[string]any, depth int) {
	leaf := depth > 2
	k := g.r.IntN(40)
	if leaf {
		k = g.r.IntN(16)
	}
	switch k {
	case 0:
		s["type"] = []string{"string", "number", "integer", "object", "array", "boolean", "null"}[g.r.IntN(7)]
	case 1:
		s["type"] = []any{"string", "integer"}
	case 2:
		s["enum"] = []any{g.value(2), g.value(2), g.value(2)}
	case 3:
		s["const"] = g.value(1)
	case 4:
		s["minimum"] = g.num()
	case 5:
		s["maximum"] = g.num()
	case 6:
		if g.draft == Draft4 {
			s["maximum"] = g.num()
			s["exclusiveMaximum"] = g.r.IntN(2) == 0
		} else {
			s["exclusiveMaximum"] = g.num()
		}
	case 7:
		if g.draft == Draft4 {
			s["minimum"] = g.num()
			s["exclusiveMinimum"] = g.r.IntN(2) == 0
		} else {
			s["exclusiveMinimum"] = g.num()
		}
	case 8:
		s["multipleOf"] = json.Number([]string{"0.5", "2", "0.01", "1.5", "3"}[g.r.IntN(5)])
	case 9:
		s["minLength"] = g.count()
	case 10:
		s["maxLength"] = g.count()
	case 11:
		s["pattern"] = []string{"^a", "b$", "a", "^$", "^[ab]+$"}[g.r.IntN(5)]
	case 12:
		s["minItems"] = g.count()
	case 13:
		s["maxItems"] = g.count()
	case 14:
		s["uniqueItems"] = g.r.IntN(3) != 0
	case 15:
		s["required"] = []any{genNames[g.r.IntN(3)], genNames[g.r.IntN(5)]}
	case 16:
		s["minProperties"] = g.count()
	case 17:
		s["maxProperties"] = g.count()
	case 18:
		props := map[string]any{}
		for i := g.r.IntN(3); i >= 0; i-- {
			props[genNames[g.r.IntN(len(genNames))]] = g.schema(depth + 1)
		}
		s["properties"] = props
	case 19:
		s["patternProperties"] = map[string]any{[]string{"^a", "b$", "^c"}[g.r.IntN(3)]: g.schema(depth + 1)}
	case 20:
		s["additionalProperties"] = g.schema(depth + 1)
	case 21:
		if g.draft >= Draft6 {
			s["propertyNames"] = g.schema(depth + 1)
		}
	case 22:
		if g.draft >= Draft2019 {
			s["dependentRequired"] = map[string]any{genNames[g.r.IntN(3)]: []any{genNames[g.r.IntN(3)]}}
		} else {
			s["dependencies"] = map[string]any{genNames[g.r.IntN(3)]: []any{genNames[g.r.IntN(3)]}}
		}
	case 23:
		if g.draft >= Draft2019 {
			s["dependentSchemas"] = map[string]any{genNames[g.r.IntN(3)]: g.schema(depth + 1)}
		} else {
			s["dependencies"] = map[string]any{genNames[g.r.IntN(3)]: g.schema(depth + 1)}
		}
	case 24:
		s["items"] = g.schema(depth + 1)
	case 25:
		if g.draft >= Draft2020 {
			s["prefixItems"] = g.list(depth)
		} else {
			s["items"] = g.list(depth)
			s["additionalItems"] = g.schema(depth + 1)
		}
	case 26:
		if g.draft >= Draft6 {
			s["contains"] = g.schema(depth + 1)
			if g.draft >= Draft2019 && g.r.IntN(2) == 0 {
				s["minContains"] = g.count()
			}
			if g.draft >= Draft2019 && g.r.IntN(2) == 0 {
				s["maxContains"] = g.count()
			}
		}
	case 27, 28:
		s["allOf"] = g.list(depth)
	case 29, 30:
		s["anyOf"] = g.list(depth)
	case 31, 32:
		s["oneOf"] = g.list(depth)
	case 33:
		s["not"] = g.schema(depth + 1)
	case 34, 35:
		if g.draft >= Draft7 {
			s["if"] = g.schema(depth + 1)
			if g.r.IntN(3) != 0 {
				s["then"] = g.schema(depth + 1)
			}
			if g.r.IntN(3) != 0 {
				s["else"] = g.schema(depth + 1)
			}
		}
	case 36, 37:
		if g.draft >= Draft2019 {
			s["unevaluatedProperties"] = g.schema(depth + 1)
		}
	case 38:
		if g.draft >= Draft2019 {
			s["unevaluatedItems"] = g.schema(depth + 1)
		}
	case 39:
		s["$ref"] = "#/definitions/d" + fmt.Sprint(g.r.IntN(2))
	}
}

func (g *schemaGen) root() []byte {
	s, ok := g.schema(0).(map[string]any)
	if !ok {
		s = map[string]any{"not": false}
	}
	s["$schema"] = map[Draft]string{Draft4: "http://json-schema.org/draft-04/schema#",
		Draft6: "http://json-schema.org/draft-06/schema#", Draft7: "http://json-schema.org/draft-07/schema#",
		Draft2019: "https://json-schema.org/draft/2019-09/schema", Draft2020: "https://json-schema.org/draft/2020-12/schema"}[g.draft]
	s["definitions"] = map[string]any{"d0": g.schema(2), "d1": g.schema(1)}
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}

// TestRandomDifferential compares verdicts with santhosh-tekuri/jsonschema
// on random schemas and instances (a fixed seed, so failures reproduce).
func TestRandomDifferential(t *testing.T) {
	n, seed := 2000, uint64(1)
	if testing.Short() {
		n = 300
	}
	// SCHEMACHECK_RANDOM=n,seed explores further.
	if v := os.Getenv("SCHEMACHECK_RANDOM"); v != "" {
		if _, err := fmt.Sscanf(v, "%d,%d", &n, &seed); err != nil {
			t.Fatalf("SCHEMACHECK_RANDOM=%q: %v", v, err)
		}
	}
	r := rand.New(rand.NewPCG(seed, 2))
	compared := 0
	for i := 0; i < n; i++ {
		g := &schemaGen{r: r, draft: fuzzDrafts[r.IntN(len(fuzzDrafts))]}
		schema := g.root()
		for j := 0; j < 5; j++ {
			inst, _ := json.Marshal(g.value(0))
			if differential(t, schema, inst, g.draft) {
				compared++
			}
		}
	}
	t.Logf("%d random pairs compared", compared)
	if compared < n {
		t.Errorf("only %d pairs compared", compared)
	}
}
