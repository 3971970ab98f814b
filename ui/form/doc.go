// Package form draws the forms of core/schemaform with Fyne: one widget,
// Form, edits a tool's arguments (and prompt arguments, resource template
// variables and elicitation requests, through the same generator).
//
// Every field kind of the model becomes its control in one type switch
// (Form.control): entries (single or multi-line, with a toggle), selects
// for enums showing titles and sending values, check boxes for
// multi-selects and booleans, entries that refuse what is not a number or
// an integer, checked entries for formats, lists with add, remove and
// reorder for arrays, collapsible fieldsets for objects, an explicit null
// switch for nullable fields, and a JSON editor for the rest. Required
// fields are marked *, descriptions show as helper text and problems show
// under the field they concern.
//
// A toggle switches the whole argument object between the form and a
// JSON editor, both ways, losing nothing; the JSON editor never rewrites
// what the user typed and invalid JSON is marked with its line and column
// and never sent. Validate returns the problems and leaves the decision to
// send anyway to the caller.
//
// Typical use (tool arguments):
//
//	model, err := schemaform.Build(tool.RawInputSchema) // bytes as the server sent them
//	f := form.New(model, &form.Options{Values: prev})  // prev: the last arguments, if any
//	f.OnChanged = func() { ... }
//	f.OnSubmit = run                                    // Enter in a single-line field
//	content := container.NewVScroll(f)
//	...
//	if issues := f.Validate(); len(issues) > 0 { /* ask: send anyway? */ }
//	args, err := f.Values() // error only for invalid JSON in the JSON editor
//
// Prompt arguments and resource template variables go through
// schemaform.StringsSchema first; elicitation requests use
// Options{Elicitation: true}, which warns when the requested schema is
// outside the restriction of the specification.
//
// The package uses only Fyne's widget packages, so its tests run with
// fyne.io/fyne/v2/test and no graphics driver.
package form
