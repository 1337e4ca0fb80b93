package hook

import (
	"encoding/json"
	"io"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/usage"
)

// A Wire is an agent host's side of one hook call: how its hook input
// reads, how it wants a verdict and a session's context answered, where the
// agent's last message is, and which environment variables name its
// project. The hosts themselves, one file each, are in hook/host.
type Wire struct {
	Name string
	// Title names the host for the agent ("governed by loophook for …");
	// "" for a protocol that is not one host's.
	Title string
	// ReadInput reads the host's hook input.
	ReadInput func(r io.Reader) (Input, error)
	// Stop renders a Stop verdict.
	Stop func(criteria.Verdict) any
	// SessionStart renders a session's context; "" when there is none.
	SessionStart func(context string) any
	// LastMessage returns the agent's last message, for the marker.
	LastMessage func(in Input) (string, error)
	// ProjectDir lists the environment variables that name the project.
	ProjectDir []string
	// Usage says where the host records the session's token usage; nil
	// when it records none.
	Usage func(in Input) usage.Source
	// Tells is the member of an answer, any answer, that the host shows
	// the person and never the model ("systemMessage"); "" when it has none
	// or its answers take no extra member.
	Tells string
}

// Prefix starts every message loophook writes for a person.
const Prefix = "loophook: "

// withNotice adds a message for the person to an answer, beside whatever
// it says, in the member the host shows people; a message the answer has
// already comes first. A host with no such member gets the answer as it is.
func withNotice(answer any, notice, member string) any {
	if notice == "" || member == "" {
		return answer
	}
	data, err := json.Marshal(answer)
	var obj map[string]any
	if err != nil || json.Unmarshal(data, &obj) != nil || obj == nil {
		return answer
	}
	if was, ok := obj[member].(string); ok && was != "" {
		notice = was + "\n" + notice
	}
	obj[member] = notice
	return obj
}
