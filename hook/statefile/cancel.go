package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/tailscale/hujson"

	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/internal/file"
	"github.com/loophook/loophook/schema"
)

// Cancelled is what Cancel did.
type Cancelled struct {
	Path, Dialect string // the state, of this dialect
	// Was is the status the loop had, "absent" when it had none; "" when
	// the loop was cancelled already and nothing changed.
	Was string
	// Aside, when set, is where the state was moved, since it could not
	// be edited (Why).
	Aside, Why string
	// Record, for another loop system's loop, is the hook's record of the
	// cancel (End).
	Record string
	// Contract, when set, is why the loop's contract could not be ended.
	Contract error
}

// Cancel ends the hope loop whose state is at path, whatever the file
// holds: a state it can edit into a valid, cancelled one is edited, only
// its "status" changed; anything else is moved aside, unchanged, to a name
// beside it stamped with now, so that the loop ends all the same and
// nothing is lost. It never writes through a symbolic link.
func Cancel(path string, now time.Time) (Cancelled, error) {
	dirPath, name := filepath.Dir(path), filepath.Base(path)
	if err := refuseLink(path, pointsToFile, cancelLinkHint); err != nil {
		return Cancelled{}, err
	}
	dir, err := openDirNoLink(dirPath, cancelLinkHint)
	if err != nil {
		return Cancelled{}, errOpen(shown(dirPath), err)
	}
	defer dir.Close()
	if fi, err := dir.Lstat(name); err != nil {
		return Cancelled{}, errNothingToCancel(shown(path), file.PathCause(err))
	} else if fi.Mode()&fs.ModeSymlink != 0 {
		return Cancelled{}, errLink(shown(path), cancelLinkHint(shown(path), pointsToFile))
	}

	var why, was string
	var out []byte
	data, err := state.ReadFile(path)
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
			err = file.Rename(dir, name, aside)
		}
		if err != nil {
			return Cancelled{}, errMoveAside(shown(path), file.PathCause(err))
		}
		file.SyncDir(dir)
		return Cancelled{Path: path, Aside: filepath.Join(dirPath, aside), Why: why}, nil
	}
	if bytes.Equal(out, data) {
		return Cancelled{Path: path}, nil
	}
	if err := writeIn(dir, name, out, file.KeptPerm(dir, name, 0o644)); err != nil {
		return Cancelled{}, errWrite(shown(path), err)
	}
	var text string
	switch {
	case was == "":
		was = "absent"
	case json.Unmarshal([]byte(was), &text) == nil:
		was = text
	}
	return Cancelled{Path: path, Was: was}, nil
}

// cancelled returns the state document with the value of its top-level
// "status" set to "cancelled", or "status":"cancelled" added as its first
// member, spaced as the first member is, so that nothing else changes. was
// is the old value as written, "" when absent.
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
	doc, err := hujson.Parse(body)
	if err != nil {
		return nil, "", err
	}
	obj, ok := doc.Value.(*hujson.Object)
	if !ok {
		return nil, "", errors.New(whyNotObject)
	}
	value := hujson.String("cancelled")
	found := false
	for i := range obj.Members {
		m := &obj.Members[i]
		if m.Name.Value.(hujson.Literal).String() == "status" {
			v := m.Value
			v.BeforeExtra, v.AfterExtra = nil, nil
			was = string(v.Pack())
			m.Value.Value = value
			found = true
		}
	}
	if !found {
		// Before the first member, spaced as it is, so that a
		// pretty-printed file stays pretty, CRLF and all.
		status := hujson.ObjectMember{Name: hujson.Value{Value: hujson.String("status")}, Value: hujson.Value{Value: value}}
		if len(obj.Members) == 0 {
			status.Name.BeforeExtra, obj.AfterExtra = obj.AfterExtra, nil
		} else {
			first := obj.Members[0]
			status.Name.BeforeExtra = first.Name.BeforeExtra
			status.Name.AfterExtra = first.Name.AfterExtra
			status.Value.BeforeExtra = first.Value.BeforeExtra
		}
		obj.Members = append([]hujson.ObjectMember{status}, obj.Members...)
	}
	out = doc.Pack()
	if hadBOM {
		out = append(bom, out...)
	}
	return out, was, nil
}
