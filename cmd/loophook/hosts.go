package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// installHost is how loophook install registers its hooks with one agent
// host: the file of each scope, how loophook's entries look in it and are
// found again, and what the person must know afterwards. Adding a host is
// adding a row to installHosts.
type installHost struct {
	name   string
	scopes []string // the first is the default
	// file is the file of scope; root is the project's directory for the
	// host (the git work tree's top, or for gemini the current directory).
	file func(scope, root string) (string, error)
	// projectDir is the directory the host reads project files from.
	projectDir func(wd string) string
	marks      []string // project paths that show the host is used there
	shape      hookShape
	text       documentText
	// install and uninstall change the document; they default to the
	// shape's. others are the host's other scopes' documents, read when
	// readOthers is set.
	install, uninstall func(doc *object, bin, scope string, others []scopeSettings) (changes, notes []string, err error)
	readOthers         bool
	// trust, when set, is a second file the host needs changed to run the
	// hooks at all (Codex's config.toml), given the document before and
	// after the change.
	trust func(install bool, scope, root, file string, before, after *object, bin string) (*fileEdit, error)
	// tell is what the person reads after an install.
	tell func(scope, root, bin string) []string
	// expandsDollar: the host expands $VAR in its settings' strings, so a
	// $ in loophook's path would be read as a variable.
	expandsDollar bool
}

// hookShape is where a host's settings document keeps its hooks, and how
// loophook's look there.
type hookShape struct {
	protocol string
	events   []hostEvent
	grouped  bool     // handlers sit in {"hooks": [...]} groups, as Claude Code's do
	keys     []string // members that may hold a handler's command line, the first written
	handler  func(command, loophookCommand string) *object
	// top checks and prepares the document's top level before an install.
	top func(doc *object, scope string) error
}

// hostEvent is a host's event name and the loophook command that answers it.
type hostEvent struct{ event, command string }

// fileEdit is a change to another file than the settings document: its
// path, and what its bytes become.
type fileEdit struct {
	path   string
	change func(data []byte) (out []byte, changes []string, err error)
}

// codexShape is Codex's hooks.json: Claude Code's groups, timeouts in seconds.
var codexShape = hookShape{
	protocol: "codex", grouped: true, keys: []string{"command"},
	events: []hostEvent{{"Stop", "stop"}, {"SessionStart", "session-start"}},
	handler: func(cmd, _ string) *object {
		return newObject("type", "command", "command", cmd, "timeout", json.Number("60"))
	},
	top: codexTop,
}

var installHosts = []*installHost{
	{
		name: "claude", scopes: []string{"project", "local", "user"},
		file:       claudeFile,
		projectDir: projectRoot,
		marks:      []string{".claude"},
		text:       jsonText,
		install: func(doc *object, bin, _ string, others []scopeSettings) ([]string, []string, error) {
			return installHooks(doc, bin, others)
		},
		uninstall: func(doc *object, bin, _ string, others []scopeSettings) ([]string, []string, error) {
			return uninstallHooks(doc, bin, others)
		},
		readOthers: true,
	},
	{
		name: "codex", scopes: []string{"project", "user"},
		file:       codexFile,
		projectDir: projectRoot,
		marks:      []string{".codex"},
		shape:      codexShape,
		text:       jsonText,
		trust:      codexTrust,
		tell:       codexTell,
	},
	{
		name: "gemini", scopes: []string{"project", "user"},
		file:       geminiFile,
		projectDir: func(wd string) string { return wd },
		marks:      []string{".gemini"},
		shape: hookShape{
			protocol: "gemini", grouped: true, keys: []string{"command"},
			events: []hostEvent{{"AfterAgent", "stop"}, {"SessionStart", "session-start"}},
			handler: func(cmd, command string) *object {
				return newObject("name", "loophook-"+command, "type", "command", "command", cmd, "timeout", json.Number("60000"))
			},
		},
		text:          jsoncText,
		tell:          geminiTell,
		expandsDollar: true,
	},
	{
		name: "copilot", scopes: []string{"project", "local", "user"},
		file:       copilotFile,
		projectDir: projectRoot,
		marks:      []string{".github/hooks", ".github/copilot"},
		shape: hookShape{
			protocol: "copilot", keys: []string{"bash", "command"},
			events: []hostEvent{{"agentStop", "stop"}, {"sessionStart", "session-start"}},
			handler: func(cmd, _ string) *object {
				return newObject("type", "command", "bash", cmd, "timeoutSec", json.Number("60"))
			},
			top: copilotTop,
		},
		text: jsonText,
		tell: copilotTell,
	},
}

func init() {
	for _, h := range installHosts {
		if h.install == nil {
			s := h.shape
			h.install = func(doc *object, bin, scope string, _ []scopeSettings) ([]string, []string, error) {
				changes, err := s.install(doc, bin, scope)
				return changes, nil, err
			}
			h.uninstall = func(doc *object, bin, _ string, _ []scopeSettings) ([]string, []string, error) {
				changes, err := s.uninstall(doc, bin)
				return changes, nil, err
			}
		}
	}
}

func hostNamed(name string) *installHost {
	for _, h := range installHosts {
		if h.name == name {
			return h
		}
	}
	return nil
}

func hostNames() []string {
	var names []string
	for _, h := range installHosts {
		names = append(names, h.name)
	}
	return names
}

// detectHost is the host whose configuration the project in wd has, and
// a note saying which it picked; claude when there is none, or more than
// one.
func detectHost(wd string) (*installHost, string) {
	var found []*installHost
	var seen []string
	for _, h := range installHosts {
		dir := h.projectDir(wd)
		for _, m := range h.marks {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m))); err == nil {
				found = append(found, h)
				seen = append(seen, m)
				break
			}
		}
	}
	switch {
	case len(found) == 0, len(found) == 1 && found[0] == installHosts[0]:
		return installHosts[0], "" // what loophook always did
	case len(found) == 1:
		return found[0], noteHostFound(found[0].name, seen[0])
	}
	return installHosts[0], noteHostDefault(seen)
}

func newObject(kv ...any) *object {
	o := &object{}
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

// install merges loophook's hooks into a host's document, keeping
// everything else; what it adds goes after what is there.
func (s hookShape) install(doc *object, bin, scope string) (changes []string, err error) {
	if s.top != nil {
		if err := s.top(doc, scope); err != nil {
			return nil, err
		}
	}
	hooks, err := childObject(doc, "hooks", "/hooks")
	if err != nil {
		return nil, err
	}
	for _, ev := range s.events {
		list, err := childList(hooks, ev.event, "/hooks/"+ev.event)
		if err != nil {
			return nil, err
		}
		want := protocolCommand(bin, ev.command, s.protocol)
		found := s.find(list, bin, ev.command)
		if len(found) == 0 {
			var entry any = s.handler(want, ev.command)
			if s.grouped {
				entry = newObject("hooks", []any{entry})
			}
			hooks.set(ev.event, append(list, entry))
			changes = append(changes, "added the "+ev.event+" hook")
			continue
		}
		keep := found[0]
		for _, f := range found {
			if f.command() == want {
				keep = f
				break
			}
		}
		if cmd, moved := repointedTo(keep.command(), bin, ev.command, s.protocol); cmd != keep.command() {
			keep.handler.set(keep.key, cmd)
			if moved {
				changes = append(changes, fmt.Sprintf("pointed the %s hook at %s", ev.event, bin))
			} else {
				changes = append(changes, fmt.Sprintf("set --protocol %s on the %s hook", s.protocol, ev.event))
			}
		}
		if len(found) > 1 {
			hooks.set(ev.event, s.remove(list, func(o *object) bool { return o != keep.handler && containsHandler(found, o) }))
			changes = append(changes, fmt.Sprintf("removed %s of the %s hook", count(len(found)-1, "copy", "copies"), ev.event))
		}
	}
	doc.set("hooks", hooks)
	return changes, nil
}

// uninstall takes loophook's hooks out of a host's document, with the
// lists they leave empty.
func (s hookShape) uninstall(doc *object, bin string) (changes []string, err error) {
	v, ok := doc.get("hooks")
	if !ok {
		return nil, nil
	}
	hooks, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("/hooks is not an object")
	}
	removedAny := false
	for _, ev := range s.events {
		list, err := childList(hooks, ev.event, "/hooks/"+ev.event)
		if err != nil {
			return nil, err
		}
		found := s.find(list, bin, ev.command)
		if len(found) == 0 {
			continue
		}
		removedAny = true
		changes = append(changes, dropFound(hooks, ev.event, list, found, s.remove))
	}
	if removedAny && len(hooks.members) == 0 {
		doc.remove("hooks")
	}
	return changes, nil
}

// find lists loophook's handlers for command in an event's list.
func (s hookShape) find(list []any, bin, command string) []handler {
	if s.grouped {
		return findHandlers(list, loophookHandler(bin, command))
	}
	return findFlat(list, s.keys, loophookHandler(bin, command))
}

func (s hookShape) remove(list []any, drop func(*object) bool) []any {
	if s.grouped {
		return removeHandlers(list, drop)
	}
	kept := []any{}
	for _, x := range list {
		if h, ok := x.(*object); ok && drop(h) {
			continue
		}
		kept = append(kept, x)
	}
	return kept
}

// hasOurs reports whether a host's document has any of loophook's hooks.
func (s hookShape) hasOurs(doc *object, bin string) bool {
	v, _ := doc.get("hooks")
	hooks, ok := v.(*object)
	if !ok {
		return false
	}
	for _, ev := range s.events {
		v, _ := hooks.get(ev.event)
		list, _ := v.([]any)
		if len(s.find(list, bin, ev.command)) > 0 {
			return true
		}
	}
	return false
}

// Files per scope.

func claudeFile(scope, root string) (string, error) {
	switch scope {
	case "project":
		return filepath.Join(root, ".claude", "settings.json"), nil
	case "local":
		return filepath.Join(root, ".claude", "settings.local.json"), nil
	}
	dir, err := userConfigDir()
	return filepath.Join(dir, "settings.json"), err
}

// codexHome is CODEX_HOME, else ~/.codex.
func codexHome() (string, error) {
	if dir := os.Getenv("CODEX_HOME"); dir != "" {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	return filepath.Join(home, ".codex"), err
}

func codexFile(scope, root string) (string, error) {
	if scope == "project" {
		return filepath.Join(root, ".codex", "hooks.json"), nil
	}
	dir, err := codexHome()
	return filepath.Join(dir, "hooks.json"), err
}

func geminiFile(scope, dir string) (string, error) {
	if scope == "project" {
		return filepath.Join(dir, ".gemini", "settings.json"), nil
	}
	home := os.Getenv("GEMINI_CLI_HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, ".gemini", "settings.json"), nil
}

func copilotFile(scope, root string) (string, error) {
	switch scope {
	case "project":
		return filepath.Join(root, ".github", "hooks", "loophook.json"), nil
	case "local":
		return filepath.Join(root, ".github", "copilot", "settings.local.json"), nil
	}
	dir := os.Getenv("COPILOT_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(home, ".copilot")
	}
	return filepath.Join(dir, "hooks", "loophook.json"), nil
}

// Top levels.

// codexTop refuses a hooks file Codex would skip: one with a top-level key
// other than description and hooks.
func codexTop(doc *object, _ string) error {
	for _, m := range doc.members {
		if m.key != "description" && m.key != "hooks" {
			return errCodexTopKey(m.key)
		}
	}
	return nil
}

// copilotTop starts a hooks file of loophook's own with its version; the
// local scope's settings file has no version.
func copilotTop(doc *object, scope string) error {
	if scope != "local" && len(doc.members) == 0 {
		doc.set("version", json.Number("1"))
	}
	return nil
}

// hostBinary checks that a host can run bin as written: Gemini expands $
// in every string of its settings.
func hostBinary(h *installHost, bin string) error {
	if h.expandsDollar && strings.Contains(bin, "$") {
		return errDollarInPath(bin)
	}
	return nil
}
