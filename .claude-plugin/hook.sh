#!/bin/sh
# The loophook plugin's hook: hooks.json runs it as
#   sh "${CLAUDE_PLUGIN_ROOT}/.claude-plugin/hook.sh" stop|session-start
# It runs loophook from PATH. Without loophook it must not trap the agent:
# it tells the person how to install it and lets the turn end (exit 0, no
# "decision").
#
# LOOPHOOK_VIA=plugin tells loophook that the plugin, not `loophook install`,
# registered this call, so that it can stand down when an install
# registration answers the same event (see README.md beside this file).

case $1 in
stop | session-start) ;;
*)
	echo "usage: hook.sh stop|session-start" >&2
	exit 0
	;;
esac

if command -v loophook >/dev/null 2>&1; then
	LOOPHOOK_VIA=plugin
	export LOOPHOOK_VIA
	exec loophook "$1" --protocol claude
fi

# Read the hook input, so that Claude Code never writes into a closed pipe.
[ -t 0 ] || cat >/dev/null
echo '{"systemMessage":"loophook is not installed: go install github.com/loophook/loophook/cmd/loophook@latest (or a release binary) and put it on PATH. Until then the loophook plugin does not keep the agent working."}'
exit 0
