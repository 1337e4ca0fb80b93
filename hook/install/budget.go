package install

import (
	"path/filepath"

	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/internal/file"
)

// tokensUnrecorded warns, for a host that keeps no record of tokens, when
// the project's .loophook.json asks for a token budget the hook could never
// measure: one never reached must not look as if it held. "" otherwise.
func tokensUnrecorded(h host.Host, wd string) string {
	if h.Usage != nil {
		return ""
	}
	path := filepath.Join(state.Top(wd), config.File)
	data, err := file.Read(path, config.MaxFile)
	if err != nil {
		return ""
	}
	if cfg, err := config.Parse(data); err != nil || cfg.Budget.Tokens == 0 {
		return ""
	}
	return noteTokensUnrecorded(h.Title, shown(path))
}
