package usage

// Source says where a host records a session's token usage: a JSON Lines
// file read incrementally in Format, or a file that keeps the session's
// sum (Summed).
type Source struct {
	Path   string
	Format Format
	Summed bool
	// Await, for a host that writes the file behind the hook, reports
	// whether the file holds this stop's reply yet; the stop waits for it
	// a moment. nil: the file is up to date when the hook runs.
	Await func() bool
}
