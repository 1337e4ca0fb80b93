package host

// Every sentence of this package a person reads.

const (
	errUnknown       = "unknown protocol %q (want %s)"
	transcriptNoStop = "the transcript did not reach this stop in time"
)
