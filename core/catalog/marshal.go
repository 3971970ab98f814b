package catalog

import (
	"fmt"
)

var compactStyle = style{multiline: false, unit: "", colon: ":", comma: ",", nl: "\n"}

// MarshalJSON renders the server as a catalog entry: fields equal to their
// defaults are left out and OAuth.ClientSecret is never written.
func (s Server) MarshalJSON() ([]byte, error) {
	return renderObject(serverFields, &s, &Server{}, nil, nil, nil, nil, "", compactStyle), nil
}

// UnmarshalJSON reads one catalog entry (the type is inferred from command
// or url when absent). Problems are returned as an *InvalidError; the
// fields that could be read are set anyway.
func (s *Server) UnmarshalJSON(data []byte) error {
	if valueKind(data) != "object" {
		return &EntryError{Value: shorten(string(data)), Err: ErrInvalidValue}
	}
	doc := []byte(fmt.Sprintf(`{"mcpServers":{"s":%s}}`, data))
	c, err := parse("", doc)
	if c == nil {
		return err
	}
	*s = c.entries[0].cur
	if err != nil {
		if inv, ok := err.(*InvalidError); ok {
			for _, p := range inv.Problems {
				p.Server = ""
			}
		}
	}
	return err
}
