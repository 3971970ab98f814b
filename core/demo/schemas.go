package demo

import "encoding/json"

// The raw input schemas of the form tools. Together they cover every row of
// the form-generation table: each keyword reaches the client exactly as
// written here.

// schemaTextAndNumbers: string, description, minLength/maxLength, default,
// required, format uri, number and integer with minimum/maximum, boolean.
var schemaTextAndNumbers = json.RawMessage(`{
  "type": "object",
  "properties": {
    "title": {
      "type": "string",
      "title": "Title",
      "description": "A short title, 3 to 40 characters.",
      "minLength": 3,
      "maxLength": 40,
      "default": "Hello, Spyglass"
    },
    "body": {
      "type": "string",
      "description": "Free text without limits."
    },
    "homepage": {
      "type": "string",
      "format": "uri",
      "title": "Homepage",
      "description": "A URL; it must be a valid URI."
    },
    "ratio": {
      "type": "number",
      "description": "A number between 0 and 1.",
      "minimum": 0,
      "maximum": 1,
      "default": 0.5
    },
    "count": {
      "type": "integer",
      "title": "Count",
      "description": "A whole number between 1 and 100.",
      "minimum": 1,
      "maximum": 100,
      "default": 10
    },
    "enabled": {
      "type": "boolean",
      "description": "A checkbox.",
      "default": true
    }
  },
  "required": ["title", "count"]
}`)

// schemaChoices: string enum, titled single-select (oneOf + const + title),
// titled multi-select (array of anyOf consts), legacy enum with enumNames.
var schemaChoices = json.RawMessage(`{
  "type": "object",
  "properties": {
    "color": {
      "type": "string",
      "description": "A plain enum: a dropdown without titles.",
      "enum": ["red", "green", "blue"],
      "default": "green"
    },
    "size": {
      "type": "string",
      "title": "Size",
      "description": "A titled single-select (oneOf with const and title).",
      "oneOf": [
        {"const": "small", "title": "Small (1-10 items)"},
        {"const": "medium", "title": "Medium (11-100 items)"},
        {"const": "large", "title": "Large (100+ items)"}
      ],
      "default": "medium"
    },
    "permissions": {
      "type": "array",
      "title": "Permissions",
      "description": "A titled multi-select (array items with anyOf consts).",
      "items": {
        "type": "string",
        "anyOf": [
          {"const": "read", "title": "Read access"},
          {"const": "write", "title": "Write access"},
          {"const": "delete", "title": "Delete access"}
        ]
      },
      "minItems": 1,
      "uniqueItems": true,
      "default": ["read"]
    },
    "priority": {
      "type": "string",
      "title": "Priority",
      "description": "A legacy enum with enumNames.",
      "enum": ["p1", "p2", "p3"],
      "enumNames": ["Urgent", "Normal", "Someday"]
    }
  },
  "required": ["size"]
}`)

// schemaStructures: array (strings and bounded integers), nested object,
// $ref/$defs and a non-enum anyOf that needs the JSON editor.
var schemaStructures = json.RawMessage(`{
  "type": "object",
  "$defs": {
    "address": {
      "type": "object",
      "title": "Address",
      "properties": {
        "street": {"type": "string"},
        "city": {"type": "string", "description": "Required inside the address."},
        "postcode": {"type": "string", "minLength": 4, "maxLength": 10}
      },
      "required": ["city"]
    }
  },
  "properties": {
    "tags": {
      "type": "array",
      "description": "A list with add and remove.",
      "items": {"type": "string", "minLength": 1},
      "default": ["demo"]
    },
    "scores": {
      "type": "array",
      "description": "Whole numbers from 0 to 10.",
      "items": {"type": "integer", "minimum": 0, "maximum": 10}
    },
    "owner": {
      "type": "object",
      "title": "Owner",
      "description": "A nested fieldset.",
      "properties": {
        "name": {"type": "string"},
        "email": {"type": "string", "format": "email"},
        "admin": {"type": "boolean", "default": false}
      },
      "required": ["name"]
    },
    "shipping": {
      "$ref": "#/$defs/address"
    },
    "target": {
      "description": "A file path or a numeric id: a non-enum anyOf that needs the JSON editor.",
      "anyOf": [
        {"type": "string", "format": "uri"},
        {"type": "integer", "minimum": 1}
      ]
    }
  },
  "required": ["owner"]
}`)

// schemaWeatherOutput is get_weather's outputSchema.
var schemaWeatherOutput = json.RawMessage(`{
  "type": "object",
  "properties": {
    "city": {"type": "string"},
    "temperature": {"type": "number", "description": "Degrees Celsius."},
    "conditions": {"type": "string", "enum": ["sunny", "cloudy", "rain", "snow"]},
    "humidity": {"type": "integer", "minimum": 0, "maximum": 100}
  },
  "required": ["city", "temperature", "conditions", "humidity"]
}`)
