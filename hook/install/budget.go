package install

import (
	"os"
	"path/filepath"

	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/host"
)

// tokensUnmeasured is the project's .loophook.json when it asks for a token
// budget that h, a host that keeps no record of tokens, could never let the
// hook measure; "" otherwise. A budget never reached must not look as if it
// held.
func tokensUnmeasured(h host.Host, wd string) string {
	if h.Usage != nil {
		return ""
	}
	path := filepath.Join(config.Top(wd), config.File)
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if cfg, err := config.Parse(data); err != nil || cfg.Budget.Tokens == 0 {
		return ""
	}
	return path
}
