// Package schemacheck validates JSON documents against JSON Schema drafts
// 4, 6, 7, 2019-09 and 2020-12 without any package-level work at start-up:
// no init function, no package-level variable computed at run time
// (sentinel errors are static data), nothing compiled until Compile is
// called, so linking it costs a short CLI run nothing.
//
// Compile turns a schema into a Schema; Schema.Validate and
// Schema.ValidateValue check an instance and return a flat list of leaf
// failures (Error), in schema document order, each with the instance
// location it concerns. A failed anyOf or oneOf reports the failures of
// every branch, except when all branches are {"const": ...} alternatives:
// then one Error carries the allowed values in Choices.
//
// A few failures are reported once for a whole value rather than once per
// member: additionalProperties and unevaluatedProperties set to false give
// one Error at the object listing the extra names ("additional properties
// not allowed: x, y"); items or additionalItems set to false give one
// Error at the array ("must have at most 2 items"); contains gives one
// Error. propertyNames failures are reported at the property's location,
// with "property name" put in front of the message. A false schema
// anywhere else fails with Keyword "false" and Message "not allowed".
//
// unevaluatedProperties and unevaluatedItems see the annotations of
// anyOf, oneOf and if branches only when the branch succeeded. Those of
// $ref, allOf, dependentSchemas, then and else are kept even when they
// fail: the schema has failed anyway, and this avoids a second, derived
// failure for the same property.
//
// Numbers are compared exactly (math/big.Rat from the literal text), so
// 19.99 is a multiple of 0.01 and 30-digit integers keep every digit.
// Number literals whose exponent exceeds 10000 in magnitude, or that are
// longer than 10000 characters, are refused so that hostile input cannot
// make the arithmetic allocate without bound.
//
// $ref is resolved inside the schema document and in Options.Resources
// only; nothing is ever fetched from the network or read from disk, and
// that includes the JSON Schema meta-schemas: a schema that refers to a
// meta-schema must be given it in Resources.
//
// Evaluation is bounded: at most 512 nested evaluations (each subschema
// applied, through $ref too, is one level), 1<<20 evaluations and 10000
// failures per Validate call, and $ref cycles that do not consume any of
// the instance ({"$ref": "#"}) are detected. Exceeding a bound is reported
// as an error (ErrLimit, or ErrSchema for a cycle), not as a validation
// failure, and never as a panic.
//
// Regular expressions ("pattern", "patternProperties", format "regex")
// use Go's regexp syntax (RE2), not ECMA 262: look-around and
// back-references are schema errors.
package schemacheck
