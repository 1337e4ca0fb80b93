package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/schema"
)

func cancelCommand() *cli.Command {
	return &cli.Command{
		Name:  "cancel",
		Usage: "end the loop: set the state's status to cancelled",
		Description: "Sets \"status\" to \"cancelled\" in the state the hook would find (or --state), so that the\n" +
			"Stop hook lets the agent stop. Only that value changes: every other byte stays as it was,\n" +
			"key order, spacing, line ends and a byte order mark included. The file is replaced\n" +
			"atomically and keeps its permissions. Refuses a file that is not JSON.\n\n" +
			"Examples:\n" +
			"   loophook cancel\n" +
			"   loophook cancel --state path/to/.loop/state.json",
		Flags: []cli.Flag{stateFlag, dirFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fail("name the file with --state FILE", "cancel takes no arguments")
			}
			found, err := locateState(hook.Options{StatePath: c.String("state"), Dir: c.String("dir")})
			if err != nil {
				return err
			}
			path := found.Path
			if found.Dialect.Name != schema.Hope.Name {
				return fail(hintCancelDialect, msgCancelDialect, shown(path), found.Dialect.Name, schema.HopeFile)
			}
			data, err := hook.ReadStateFile(path)
			if err != nil {
				return fail("", "%s: %v", shown(path), err)
			}
			out, was, err := cancelled(data)
			if err != nil {
				return fail("repair it (loophook validate shows where), or remove it to end the loop", "%s is %v; nothing changed", shown(path), err)
			}
			if bytes.Equal(out, data) {
				fmt.Fprintf(c.App.ErrWriter, "loophook: the loop in %s is already cancelled; nothing changed\n", shown(path))
				return nil
			}
			if err := replaceFile(path, out, 0o644); err != nil {
				return fail("", "write %s: %v", shown(path), pathCause(err))
			}
			var text string
			switch {
			case was == "":
				was = "absent"
			case json.Unmarshal([]byte(was), &text) == nil:
				was = text
			}
			fmt.Fprintf(c.App.ErrWriter, "loophook: cancelled the loop in %s (status was %s)\n", shown(path), was)
			if problems := schema.Hope.Read(out).Problems; len(problems) > 0 {
				fmt.Fprintf(c.App.ErrWriter, "loophook: note: %s is still not a valid loop state (%d %s), so the hook keeps the agent working until it is repaired; see loophook validate\n",
					shown(path), len(problems), plural(len(problems), "problem"))
			}
			return nil
		},
	}
}

// cancelled returns the state document with the value of its top-level
// "status" set to "cancelled", or "status":"cancelled" added as its first
// member, by editing the bytes in place rather than re-encoding, so that
// nothing else changes. was is the old value as written, "" when absent.
func cancelled(data []byte) (out []byte, was string, err error) {
	bom := []byte("\xef\xbb\xbf")
	body, hadBOM := bytes.CutPrefix(data, bom)
	if !json.Valid(body) {
		var v any
		return nil, "", errors.New(schema.JSONError(body, json.Unmarshal(body, &v)))
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return nil, "", errors.New("not a JSON object")
	}
	open := int(dec.InputOffset())
	type span struct{ start, end int }
	var values []span // of every "status", should the key be given twice
	colon := ""       // between the first key and its value, to add ours alike
	for first := true; dec.More(); first = false {
		key, err := dec.Token()
		if err != nil {
			return nil, "", err
		}
		keyEnd := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, "", err
		}
		end := int(dec.InputOffset())
		start := end - len(raw)
		if first {
			colon = string(body[keyEnd:start])
		}
		if key == "status" {
			values = append(values, span{start, end})
			was = string(raw)
		}
	}

	var b bytes.Buffer
	if hadBOM {
		b.Write(bom)
	}
	if len(values) == 0 {
		// After "{" and the space that leads to the first member, so that
		// a pretty-printed file stays pretty, CRLF and all.
		at := open + len(body[open:]) - len(bytes.TrimLeft(body[open:], " \t\r\n"))
		b.Write(body[:at])
		if body[at] == '}' {
			b.WriteString(`"status":"cancelled"`)
			b.Write(body[at:])
			return b.Bytes(), "", nil
		}
		b.WriteString(`"status"` + colon + `"cancelled",`)
		b.Write(body[open:at])
		b.Write(body[at:])
		return b.Bytes(), "", nil
	}
	last := 0
	for _, v := range values {
		b.Write(body[last:v.start])
		b.WriteString(`"cancelled"`)
		last = v.end
	}
	b.Write(body[last:])
	return b.Bytes(), was, nil
}
