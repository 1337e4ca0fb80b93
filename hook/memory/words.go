package memory

// Every sentence the loop's memory writes for a person is here.

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
