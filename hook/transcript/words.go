package transcript

// Every sentence the transcript's reading writes for a person is in this file.

// Transcript problems.
const (
	transcriptNone        = "the hook input names no transcript"
	transcriptError       = "transcript: %v"
	transcriptNotRegular  = "transcript is not a regular file"
	transcriptNoMessage   = "the transcript has no assistant message"
	transcriptNoMessageIn = "no assistant message in the last %d MiB of the transcript"
)
