// Package schema owns the JSON Schema of .loop/state.json that ships inside
// the binary, and checks documents against it, reporting problems as sorted
// "pointer: message" lines.
package schema

import _ "embed"

// Source is the schema, draft 2020-12, as printed by `loophook schema`.
//
//go:embed state.schema.json
var Source []byte

// ID is where the schema is registered, so that no local path leaks into messages.
const ID = "https://loophook.dev/schema/state.json"
