package main

// Every sentence of the command line itself is written here or beside the
// flag or command it describes; what a package under hook/ did or refuses
// is said in its own words.go. The "loophook: " prefix and a tag are added
// once, by say.

// Tags, after the prefix: what kind of line a person reads. A summary of
// what a command did has none.
const (
	tagError = "error: "
	tagNote  = "note: "
	tagHint  = "hint: "
)

const (
	appUsage       = "decide whether an AI coding agent's work loop may stop"
	appDescription = "loophook reads the loop's .loop/state.json and answers the agent host's Stop hook:\n" +
		"go on while criteria are unmet, stop when every criterion is met and exit_signal is true,\n" +
		"or when a limit, the circuit breaker or the runaway guard ends the loop.\n\n" +
		"Start here:\n" +
		"   loophook init --spec \"add a --json flag\" --criterion \"tests pass\"\n" +
		"   loophook install\n" +
		"   loophook status"
)

// A person-only command refused: one line each (SPEC section 5).
const (
	msgPersonOnlyTerminal = "%s is a person's act: run it yourself in a terminal (its standard input is not a terminal)"
	msgPersonOnlyAgent    = "%s is a person's act: run it yourself in a terminal, not through %s's tools (%s is set)"
	msgInitOver           = "init over the unfinished loop in %s"
	msgInstallRepoint     = "install pointing loophook's hooks at another program"
)

// Errors and their hints.
const (
	hintHelp          = "see loophook --help"
	hintCommandHelp   = "see loophook %s --help"
	msgFlagsOnly      = "%s takes flags only, not %q"
	msgUnknownCommand = "unknown command %q"
	hintDidYouMean    = "did you mean loophook %s? (see loophook --help)"
	msgUnknownFlag    = "unknown flag %s"
	msgFlagValue      = "%s needs a value"
	msgBadFlag        = "%s wants %s, not %q"
	wantWhole         = "a whole number"
	wantNumber        = "a number"
	wantBool          = "true or false"
	wantValid         = "a valid value"
	msgArgument       = "unexpected argument %q"
	msgEnv            = "%s=%q: it sets %s, which wants %s"
	msgAtLeastOne     = "%s must be at least 1, not %d"
	msgAtLeastZero    = "%s must be at least 0, not %s"
	msgOnInvalid      = "--on-invalid must be block or allow, not %q"
	msgProtocol       = "--protocol: %v"
	msgDialect        = "--dialect: %v"
	msgFileError      = "%s: %v"
	msgInvalidState   = "%s is not a valid %s state (%d %s)"
	msgValidConfig    = "%s: valid loophook config"
	msgInvalidConfig  = "%s is not a valid loophook config (%d %s)"
	msgValid          = "%s: valid %s state"
	msgWrongProtocol  = "loophook %s answered in --protocol ok ({\"ok\": ...}), which %s does not obey: its hook needs --protocol %s (loophook install --host %s writes it)"
	msgStandAside     = "the loophook plugin stands aside: loophook install registered this hook in %s, which answers alone"
	msgWatchJSON      = "--watch redraws text; it does not go with --json"
	clearScreen       = "\x1b[H\x1b[2J"
	msgReadJournal    = "read the journal: %v"
	msgNoJournal      = "no evaluations yet of the loop in %s"
)

// completion
const (
	hintCompletion       = "loophook completion bash"
	msgCompletionNoShell = "name the shell: %s"
	msgCompletionShell   = "the shell must be %s, not %q"
	msgCompletionArgs    = "completion takes one shell, not also %q"
	msgCompletionTwice   = "--shell %s and %s name two shells"
)

// accept
const hintAcceptInvalid = "repair it before you accept its criteria (loophook validate shows where)"

// A command that takes no arguments refused one; the sentences of check
// and of accept's approval of .loophook.json (status's lines for the
// checks are hook/status's).
const (
	msgNoArguments      = "%s takes no arguments"
	msgNoChecks         = "no checks in the approved %s: nothing ran"
	msgCheckNoFile      = "no %s: nothing ran"
	msgCheckNotApproved = "%s is not approved: nothing ran"
	hintCheckNone       = "write the checks in .loophook.json at the top of the work tree, and approve them with loophook accept"
	hintCheckApprove    = "a person approves it with loophook accept in a terminal"
	msgApprove          = "approve %s: %v"
	msgApproveInvalid   = "%s is not approved: it breaks the config schema where each line above says"
	msgRevoke           = "withdraw the approval of %s: %v"
	hintSchemaConfig    = "loophook schema --config prints the file's schema"
)
