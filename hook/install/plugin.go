package install

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/loophook/loophook/internal/file"
)

// pluginName is the name .claude-plugin/plugin.json gives the loophook
// plugin. Claude Code enables a plugin with an enabledPlugins entry keyed
// "<plugin>@<marketplace>"; the repository's own marketplace is also
// named loophook, so `/plugin install loophook` writes
//
//	"enabledPlugins": {"loophook@loophook": true}
//
// but the same plugin can come from any marketplace that lists it.
const pluginName = "loophook"

// PluginEnabled reports whether Claude Code settings enable the loophook
// plugin, and in which file. When it does, the plugin registers loophook's
// hooks, and `loophook install` must not register them a second time.
//
// settingsFiles are given in Claude Code's order of precedence, lowest
// first: user (~/.claude/settings.json), project (.claude/settings.json),
// local (.claude/settings.local.json), then managed settings. As in Claude
// Code, each plugin id is decided by the last file whose enabledPlugins
// names it: only the value true enables; false, or a list of versions
// (which Claude Code accepts but leaves off), disables it whatever a
// file before said. A file that is missing, unreadable or not JSON, and an
// entry of another type, decide nothing, as Claude Code ignores them.
//
// A plugin loaded for one session with --plugin-dir is in no settings file;
// the plugin's hook tells loophook so itself (LOOPHOOK_VIA=plugin).
func PluginEnabled(settingsFiles ...string) (where string, ok bool) {
	decided := map[string]string{} // plugin id -> the file that enabled it, "" when disabled
	for _, f := range settingsFiles {
		b, err := file.Read(f, maxFile) // never a named pipe: it would block
		if err != nil || !bytes.Contains(b, []byte(pluginName+"@")) {
			continue
		}
		var settings struct {
			EnabledPlugins map[string]any `json:"enabledPlugins"`
		}
		if json.Unmarshal(b, &settings) != nil {
			continue
		}
		for id, v := range settings.EnabledPlugins {
			name, marketplace, found := strings.Cut(id, "@")
			if !found || name != pluginName || marketplace == "" {
				continue
			}
			switch v := v.(type) {
			case bool:
				decided[id] = ""
				if v {
					decided[id] = f
				}
			case []any:
				if allStrings(v) {
					decided[id] = ""
				}
			}
		}
	}
	for i := len(settingsFiles) - 1; i >= 0; i-- { // the file that counts most
		for _, by := range decided {
			if by != "" && by == settingsFiles[i] {
				return by, true
			}
		}
	}
	return "", false
}

func allStrings(list []any) bool {
	for _, v := range list {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}
