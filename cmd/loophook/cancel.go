package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

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
			"atomically and keeps its permissions. A state it cannot edit into a valid, cancelled one\n" +
			"(not JSON, not an object, failing the schema, unreadable) is moved aside as it is, to\n" +
			"state.json.broken-<time> beside it, so that the loop ends all the same and nothing is lost.\n" +
			"Refuses to write through a symbolic link.\n\n" +
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
			return cancelLoop(c.App.ErrWriter, path, time.Now())
		},
	}
}

// cancelLoop ends the loop whose state is at path, whatever the file holds:
// a state it can edit into a valid, cancelled one is edited; anything else
// is moved aside, unchanged, to a name beside it stamped with now. It never
// writes through a symbolic link.
func cancelLoop(w io.Writer, path string, now time.Time) error {
	dirPath, name := filepath.Dir(path), filepath.Base(path)
	if err := refuseLink(path, pointsToFile, cancelLinkHint); err != nil {
		return err
	}
	dir, err := openDirNoLink(dirPath, cancelLinkHint)
	if err != nil {
		return errOpen(shown(dirPath), err)
	}
	defer dir.Close()
	if fi, err := dir.Lstat(name); err != nil {
		return errNothingToCancel(shown(path), pathCause(err))
	} else if fi.Mode()&fs.ModeSymlink != 0 {
		return errLink(shown(path), cancelLinkHint(shown(path), pointsToFile))
	}

	var why, was string
	var out []byte
	data, err := hook.ReadStateFile(path)
	if err != nil {
		why = err.Error()
	} else if out, was, err = cancelled(data); err != nil {
		why = err.Error()
	} else if problems := schema.Hope.Read(out).Problems; len(problems) > 0 {
		why = whyInvalidCancelled(len(problems))
	}
	if why != "" {
		aside, err := brokenName(dir, name, now)
		if err == nil {
			err = dir.Rename(name, aside)
		}
		if err != nil {
			return errMoveAside(shown(path), pathCause(err))
		}
		syncDir(dir)
		fmt.Fprintf(w, "loophook: %s\n", msgMovedAside(shown(path), shown(filepath.Join(dirPath, aside)), why))
		return nil
	}
	if bytes.Equal(out, data) {
		fmt.Fprintf(w, "loophook: %s\n", msgAlreadyCancelled(shown(path)))
		return nil
	}
	if err := writeIn(dir, name, out, keptPerm(dir, name, 0o644)); err != nil {
		return errWrite(shown(path), err)
	}
	var text string
	switch {
	case was == "":
		was = "absent"
	case json.Unmarshal([]byte(was), &text) == nil:
		was = text
	}
	fmt.Fprintf(w, "loophook: %s\n", msgCancelled(shown(path), was))
	return nil
}

// cancelled returns the state document with the value of its top-level
// "status" set to "cancelled", or "status":"cancelled" added as its first
// member, by editing the bytes in place rather than re-encoding, so that
// nothing else changes. was is the old value as written, "" when absent.
func cancelled(data []byte) (out []byte, was string, err error) {
	bom := []byte("\xef\xbb\xbf")
	body, hadBOM := bytes.CutPrefix(data, bom)
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, "", errors.New(whyEmpty)
	}
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
