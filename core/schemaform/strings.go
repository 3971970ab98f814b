package schemaform

// StringParam is one named string parameter: a prompt argument or a
// resource template variable.
type StringParam struct {
	Name        string
	Title       string
	Description string
	Required    bool
}

// StringsSchema returns the JSON Schema of an object of string parameters,
// so prompt arguments and resource template variables get the same forms
// as tool arguments.
func StringsSchema(params []StringParam) []byte {
	props := &Value{Type: TypeObject, Members: make([]Member, 0, len(params))}
	req := &Value{Type: TypeArray, Items: []*Value{}}
	for _, p := range params {
		s := Object(Member{"type", String("string")})
		if p.Title != "" {
			s.Members = append(s.Members, Member{"title", String(p.Title)})
		}
		if p.Description != "" {
			s.Members = append(s.Members, Member{"description", String(p.Description)})
		}
		props.Members = append(props.Members, Member{p.Name, s})
		if p.Required {
			req.Items = append(req.Items, String(p.Name))
		}
	}
	root := Object(Member{"type", String("object")}, Member{"properties", props})
	if len(req.Items) > 0 {
		root.Members = append(root.Members, Member{"required", req})
	}
	return root.JSON()
}
