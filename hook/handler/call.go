package handler

import (
	"os"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/host"
)

// Plugin hooks: the plugin's hook script (.claude-plugin/hook.sh) sets
// ViaEnv to ViaPlugin.
const (
	ViaEnv    = "LOOPHOOK_VIA"
	ViaPlugin = "plugin"
)

// CallWire is the wire a hook call for the command (stop, session-start)
// answers in, given the wire its --protocol named: the host's, or another
// host's whose agent runs it (host.Host.Under) and which registered the
// command.
func CallWire(command string, named hook.Wire) hook.Wire {
	h, err := host.Lookup(named.Name)
	if err != nil {
		return named
	}
	h, _ = h.Under(os.Getenv, func(g host.Host) bool { _, ok := Registered(g, command); return ok })
	return h.Wire
}

// PluginBeside is, for a hook call from the plugin, where the same hook is
// also installed by loophook install, so that the plugin's stands aside;
// ok is false otherwise.
func PluginBeside(command string) (where string, ok bool) {
	if os.Getenv(ViaEnv) != ViaPlugin {
		return "", false
	}
	return InstalledBeside(command)
}
