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

// A person's cancel of another loop system's loop, as the hook records it.
const (
	cancelInvalid    = "%s is not a valid loop state, so there is no loop to cancel"
	cancelNowhere    = "no place to record the cancel: %v"
	cancelNoWrite    = "record the cancel: %w"
	cancelNoClear    = "forget the cancel: %w"
	cancelDamaged    = "damaged"
	cancelUnreadable = "read the cancel record %s: %v"
)

// Memory problems.
const (
	memoryUnreadable = "read memory: %w"
	memoryDamaged    = "memory %s is damaged; the guard counts afresh"
	memoryNotRegular = "memory %s is not a regular file; the guard counts afresh"
	memoryTooLarge   = "memory %s is larger than %d KiB; the guard counts afresh"
	memoryNowhere    = "no place for the hook's memory"
	memoryNoCache    = "no per-user cache directory: %w"
	memoryAndThen    = "; and "
	memoryNoDir      = "create memory directory: %w"
	memoryNoLock     = "lock memory: %w"
	memoryNoWrite    = "write memory: %w"
)

// Contract problems.
const (
	contractUnreadable = "read the loop's contract %s: %v"
	contractDamaged    = "the loop's contract %s is %s; the criteria the state lists now become the contract"
	contractNotOurs    = "damaged"
	contractNotRegular = "not a regular file"
)

// Budget problems.
const (
	usageUnreadable  = "read the host's token usage in %s: %v"
	budgetUnreadable = "read the loop's budget record %s: %v; its counts start afresh"
	budgetDamaged    = "the loop's budget record %s is damaged; its counts start afresh"
)

// What a session's context says of the checks a person set.
const (
	contextChecks = " Before this loop may end, loophook runs the checks a person approved in .loophook.json itself, and each must pass: %s. Run loophook check to run them now."
	contextCheck  = "%q (%s)"
	contextGuards = ", guarding %q"
)
