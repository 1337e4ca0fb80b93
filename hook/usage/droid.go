package usage

import "encoding/json"

// Droid reads Factory Droid's <session>.settings.json, which keeps the
// session's usage summed rather than line by line: its tokenUsage, or
// inclusiveTokenUsage (with the session's sub-agents) when it has one.
// ok is false when the file is not JSON or records no usage.
func Droid(data []byte) (u Usage, ok bool) {
	type droidUsage struct {
		Input         int64 `json:"inputTokens"`
		Output        int64 `json:"outputTokens"`
		CacheCreation int64 `json:"cacheCreationTokens"`
		CacheRead     int64 `json:"cacheReadTokens"`
		Thinking      int64 `json:"thinkingTokens"`
	}
	var s struct {
		Own       *droidUsage `json:"tokenUsage"`
		Inclusive *droidUsage `json:"inclusiveTokenUsage"`
	}
	if json.Unmarshal(data, &s) != nil {
		return u, false
	}
	d := s.Inclusive
	if d == nil {
		d = s.Own
	}
	if d == nil {
		return u, false
	}
	return Usage{Input: d.Input, Output: d.Output + d.Thinking, CacheCreation: d.CacheCreation, CacheRead: d.CacheRead}, true
}
