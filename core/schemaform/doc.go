// Package schemaform turns a JSON Schema, exactly as an MCP server sent
// it, into a UI-agnostic field model, holds what the user enters, turns
// it back into JSON and validates it.
//
// Build parses the schema into a Form whose Root is a tree of Field
// values. Each Field has a Kind that names the control it needs (text,
// multi-line text, enum, titled enum, multi-select, formatted string,
// number, integer, boolean, array, object, nullable wrapper, or a JSON
// editor for whatever a form cannot express: non-enum anyOf/oneOf/allOf,
// if/then/else, recursive $ref beyond a depth, ...). Same-document $ref
// ("#/$defs/...", "#/definitions/...") are resolved inline.
//
// A State tree holds what each control shows. State.Value turns it into a
// Value, this package's lossless JSON value: numbers keep their literal
// text (integers stay integers, large ones keep every digit), empty
// optional fields are left out, and members for which the form has no
// control are carried through untouched, so switching between a form and
// a JSON editor loses nothing.
//
// Validation is twofold: State.Check and State.Issues check each control
// (so a UI shows errors next to the field), and Form.Validate checks the
// whole document with github.com/santhosh-tekuri/jsonschema/v6 (draft
// 2020-12 by default, drafts 4, 6, 7 and 2019-09 through $schema), each
// problem worded plainly at the instance location it concerns; one format
// checker serves both. Form.Check combines both; CompileSchema serves
// other documents, such as a tool's structuredContent.
//
// CheckElicitation applies the restriction the MCP specification puts on
// elicitation schemas; StringsSchema makes prompt arguments and resource
// template variables into a schema so they use the same forms.
//
// Nothing here imports a UI toolkit; ui/form draws the controls.
package schemaform
