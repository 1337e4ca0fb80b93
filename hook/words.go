package hook

// Every sentence the hook writes for a person, other than the rules' reasons
// (criteria) and the state file's problems (schema, hook/state), is here.

// Notes on stderr.
const (
	noteInternal = "internal error: %v\n%s"
	noteNote     = "note: %v"
	noteError    = "error: %v"
)

// Hook input problems.
const (
	inputUnreadable = "read stdin: %w"
	inputTooLarge   = "stdin is larger than %d MiB"
	inputEmpty      = "stdin is empty"
	inputNothing    = "nothing arrived on stdin within %v"
	inputUnfinished = "stdin did not finish a JSON object within %v"
	inputNotObject  = "stdin is not a JSON object"
	inputNotJSON    = "stdin: %s"
)

// What a session's context adds: which host's hook governs the session.
const contextHost = " This session is governed by loophook for %s."

// What is wrong with the paths a person gave the hook.
const (
	configNoState   = "--state %s: %v"
	configNoDir     = "--dir %s: %v"
	configDirNotDir = "--dir %s is not a directory"
)

// What a session's context says of the checks a person set.
const (
	contextChecks = " Before this loop may end, loophook runs the checks a person approved in .loophook.json itself, and each must pass: %s. Run loophook check to run them now."
	contextCheck  = "%q (%s)"
	contextGuards = ", guarding %q"
)
