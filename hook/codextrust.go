package hook

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Codex CLI runs a hook from a hooks file only when the user config.toml
// records the hook's current hash under its position:
//
//	[hooks.state."<hooks file>:<event label>:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// (codex-cli/PROTOCOL.md §2). An untrusted or changed hook is skipped
// without a word, so `install --host codex` must write exactly what Codex
// computes.

// codexDefaultTimeout is the timeout Codex hashes, and runs with, for a
// handler that sets none.
const codexDefaultTimeout = 600

// CodexEventLabel is the snake_case label Codex uses for a hook event in
// trust keys and hook run ids: "Stop" → "stop", "SessionStart" →
// "session_start".
func CodexEventLabel(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CodexTrustKey is the key of a hook's [hooks.state] entry: the absolute
// path of its hooks file, the event label, and the indices of its matcher
// group and of the handler within the group (so moving a hook un-trusts it).
func CodexTrustKey(hooksFile, eventLabel string, group, handler int) string {
	return fmt.Sprintf("%s:%s:%d:%d", hooksFile, eventLabel, group, handler)
}

// CodexHookHash is the trusted_hash Codex 0.169.0 computes for a command
// hook with no matcher, no async, no statusMessage and no
// additionalContextLimit, which is how loophook registers its hooks.
// timeoutSec is the handler's "timeout"; 0 or less means none is written,
// which Codex hashes as its default of 600 (an explicit "timeout": 0 would
// hash as 1: never write one).
func CodexHookHash(eventLabel, command string, timeoutSec int) string {
	sum := sum256(codexHookIdentity(eventLabel, command, timeoutSec))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexHookIdentity is what Codex hashes: the hook's normalized identity as
// compact JSON with its keys sorted, as serde_json writes it.
func codexHookIdentity(eventLabel, command string, timeoutSec int) []byte {
	if timeoutSec <= 0 {
		timeoutSec = codexDefaultTimeout
	}
	b := []byte(`{"event_name":`)
	b = appendJSONString(b, eventLabel)
	b = append(b, `,"hooks":[{"async":false,"command":`...)
	b = appendJSONString(b, command)
	b = append(b, `,"timeout":`...)
	b = strconv.AppendInt(b, int64(timeoutSec), 10)
	b = append(b, `,"type":"command"}]}`...)
	return b
}
