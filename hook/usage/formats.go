package usage

import (
	"encoding/json"
	"time"
)

// The formats of the hosts that record usage line by line.
var (
	// Claude is Claude Code's transcript: an assistant line's
	// message.usage, written again on each line of a message with several
	// content blocks (counted once, by message.id). Claude Code writes
	// compact JSON with its keys as they are, so a line that records usage
	// holds "usage":{ and is read as encoding/json reads it.
	Claude = Format{Name: "claude", Marker: []byte(`"usage":{`), Parse: parseClaude}
	// Codex is Codex CLI's rollout: one token_usage_record line per
	// response; its input_tokens include the cached ones.
	Codex = Format{Name: "codex", Marker: []byte(`"token_usage_record"`), Parse: parseCodex}
	// Gemini is Gemini CLI's session file: a "gemini" record's tokens,
	// rewritten under the same id as the record grows.
	Gemini = Format{Name: "gemini", Marker: []byte(`"tokens"`), Parse: parseGemini}
	// Copilot is Copilot CLI's events.jsonl: one session.usage_record
	// event per model call.
	Copilot = Format{Name: "copilot", Marker: []byte(`"session.usage_record"`), Parse: parseCopilot}
	// Qwen is Qwen Code's transcript: the qwen-code.api_response telemetry
	// record of each response (its assistant records lack a tool-calling
	// response's usage).
	Qwen = Format{Name: "qwen", Marker: []byte(`"qwen-code.api_response"`), Parse: parseQwen}
	// Pi is Pi's session file: each assistant message's (and tool
	// result's) message.usage, and the usage of its usage, compaction and
	// branch_summary entries; its input is the uncached input.
	Pi = Format{Name: "pi", Marker: []byte(`"usage"`), Parse: parsePi}
)

// at reads a line's timestamp; zero when it has none that reads.
func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// claudeUsage is Claude Code's message.usage.
type claudeUsage struct {
	Input         int64 `json:"input_tokens"`
	Output        int64 `json:"output_tokens"`
	CacheCreation int64 `json:"cache_creation_input_tokens"`
	CacheRead     int64 `json:"cache_read_input_tokens"`
}

func (u claudeUsage) usage() Usage {
	return Usage(u)
}

func parseClaude(line []byte, add func(Entry)) {
	e, has, ok := claudeFast(line)
	if !ok {
		e, has = claudeJSON(line)
	}
	if has {
		add(e)
	}
}

// claudeJSON is the plain reading of a line, which claudeFast must agree
// with.
func claudeJSON(line []byte) (Entry, bool) {
	var l struct {
		Type      string `json:"type"`
		Timestamp string `json:"timestamp"`
		Message   struct {
			ID    string       `json:"id"`
			Usage *claudeUsage `json:"usage"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "assistant" || l.Message.Usage == nil {
		return Entry{}, false
	}
	return Entry{ID: l.Message.ID, At: at(l.Timestamp), Usage: l.Message.Usage.usage()}, true
}

// openAI is a usage in which input counts the cached tokens too, and
// output the reasoning ones; total, when set, is the host's own sum.
func openAI(input, output, cached, cacheWrite, total int64) Usage {
	u := Usage{Input: input - cached - cacheWrite, Output: output, CacheRead: cached, CacheCreation: cacheWrite}
	if u.Input < 0 {
		u.Input = 0
	}
	if total > u.Total() {
		u.Input += total - u.Total()
	}
	return u
}

func parseCodex(line []byte, add func(Entry)) {
	var l struct {
		Type      string `json:"type"`
		Timestamp string `json:"timestamp"`
		Payload   struct {
			ResponseID string `json:"response_id"`
			Usage      *struct {
				Input      int64 `json:"input_tokens"`
				Cached     int64 `json:"cached_input_tokens"`
				CacheWrite int64 `json:"cache_write_input_tokens"`
				Output     int64 `json:"output_tokens"`
				Total      int64 `json:"total_tokens"`
			} `json:"usage"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "token_usage_record" || l.Payload.Usage == nil {
		return
	}
	u := l.Payload.Usage
	add(Entry{ID: l.Payload.ResponseID, At: at(l.Timestamp), Usage: openAI(u.Input, u.Output, u.Cached, u.CacheWrite, u.Total)})
}

// geminiRecord is a message record of Gemini CLI's session file.
type geminiRecord struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Tokens    *struct {
		Input    int64 `json:"input"`
		Output   int64 `json:"output"`
		Cached   int64 `json:"cached"`
		Thoughts int64 `json:"thoughts"`
		Tool     int64 `json:"tool"`
		Total    int64 `json:"total"`
	} `json:"tokens"`
}

func (r geminiRecord) entry(add func(Entry)) {
	if r.Type != "gemini" || r.Tokens == nil {
		return
	}
	t := r.Tokens
	add(Entry{ID: r.ID, At: at(r.Timestamp), Usage: openAI(t.Input+t.Tool, t.Output+t.Thoughts, t.Cached, 0, t.Total)})
}

func parseGemini(line []byte, add func(Entry)) {
	var l struct {
		geminiRecord
		// An update line can carry whole messages.
		Set struct {
			Messages []geminiRecord `json:"messages"`
		} `json:"$set"`
	}
	if json.Unmarshal(line, &l) != nil {
		return
	}
	l.geminiRecord.entry(add)
	for _, m := range l.Set.Messages {
		m.entry(add)
	}
}

func parseCopilot(line []byte, add func(Entry)) {
	var l struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		Timestamp string `json:"timestamp"`
		Data      struct {
			Usage *struct {
				Input      int64  `json:"inputTokens"`
				Output     int64  `json:"outputTokens"`
				CacheRead  int64  `json:"cacheReadTokens"`
				CacheWrite int64  `json:"cacheWriteTokens"`
				CallID     string `json:"apiCallId"`
			} `json:"usage"`
		} `json:"data"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "session.usage_record" || l.Data.Usage == nil {
		return
	}
	u := l.Data.Usage
	id := u.CallID
	if id == "" {
		id = l.ID
	}
	add(Entry{ID: id, At: at(l.Timestamp), Usage: Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheCreation: u.CacheWrite}})
}

func parseQwen(line []byte, add func(Entry)) {
	var l struct {
		Timestamp     string `json:"timestamp"`
		SystemPayload struct {
			UIEvent struct {
				Name       string `json:"event.name"`
				ResponseID string `json:"response_id"`
				Input      int64  `json:"input_token_count"`
				Output     int64  `json:"output_token_count"`
				Cached     int64  `json:"cached_content_token_count"`
				Thoughts   int64  `json:"thoughts_token_count"`
				Total      int64  `json:"total_token_count"`
			} `json:"uiEvent"`
		} `json:"systemPayload"`
	}
	if json.Unmarshal(line, &l) != nil || l.SystemPayload.UIEvent.Name != "qwen-code.api_response" {
		return
	}
	e := l.SystemPayload.UIEvent
	add(Entry{ID: e.ResponseID, At: at(l.Timestamp), Usage: openAI(e.Input, e.Output+e.Thoughts, e.Cached, 0, e.Total)})
}

// piUsage is Pi's usage: four disjoint parts (reasoning is inside output),
// and their sum.
type piUsage struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cacheRead"`
	CacheWrite int64 `json:"cacheWrite"`
	Total      int64 `json:"totalTokens"`
}

func (p piUsage) usage() Usage {
	u := Usage{Input: p.Input, Output: p.Output, CacheRead: p.CacheRead, CacheCreation: p.CacheWrite}
	if p.Total > u.Total() {
		u.Input += p.Total - u.Total()
	}
	return u
}

// parsePi reads one entry of a Pi session file. Entries are appended, each
// with an id of its own; all of them count, whatever branch (the tree's
// branches share the file), as Pi's session totals do.
func parsePi(line []byte, add func(Entry)) {
	var l struct {
		Type      string   `json:"type"`
		ID        string   `json:"id"`
		Timestamp string   `json:"timestamp"`
		Usage     *piUsage `json:"usage"`
		Message   struct {
			Usage *piUsage `json:"usage"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &l) != nil {
		return
	}
	u := l.Usage
	if l.Type == "message" {
		u = l.Message.Usage
	}
	if u == nil {
		return
	}
	add(Entry{ID: l.ID, At: at(l.Timestamp), Usage: u.usage()})
}
