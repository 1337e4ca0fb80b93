package hostfile

// Every sentence of this package a person reads.

const (
	errNotObject     = "not a JSON object"
	errIsNotObject   = " is not an object"
	errIsNotArray    = " is not an array"
	errTOMLElsewhere = "%s is defined without a table header (%s); loophook adds only [%s.\"...\"] tables"
	errTOMLInvalid   = "the edit would not be valid TOML (%v)"
	errTOMLLost      = "the edit would not set %s in [%s]"
	errTOMLKept      = "the edit would not remove [%s]"
)
