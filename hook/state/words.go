package state

// Every sentence the state's reading writes for a person is in this file.

// Problems with the state file itself, as the reason lists them.
const (
	problemDirectory  = "the file is a directory"
	problemNotRegular = "the file is not a regular file"
	problemTooLarge   = "the file is larger than %d MiB"
	problemUnreadable = "the file cannot be read: %v"
	problemMissing    = "the file does not exist (or is a broken link)"
	problemPermission = "the file cannot be read: permission denied"
	problemUnopenable = "the file cannot be opened: %v"
)
