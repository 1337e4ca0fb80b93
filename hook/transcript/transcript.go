// Package transcript reads the agent's last message from the end of a
// host's transcript: backwards from the end in blocks, never further back
// than a limit, so that a stop costs the same for a 1 GB transcript as for
// a 1 KB one. Each host brings a LineParser for its own format.
package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/loophook/loophook/internal/file"
)

// Transcript tail limits: blocks read backwards from the end, and how far
// back to look before giving up, so the cost does not grow with the file.
const (
	tailBlock = 64 << 10
	tailLimit = 32 << 20
)

// A LineParser returns the assistant text of one transcript line when the
// line is the message looked for. Lines come last first; a parser may keep
// state between them (Copilot's looks for a marker line first).
type LineParser func(line []byte) (string, bool)

// LastAssistantText returns the text of the last assistant message in a
// Claude Code transcript (JSON Lines), reading the file backwards from its end.
func LastAssistantText(path string) (string, error) {
	return LastText(path, func() LineParser { return assistantText })
}

// LastText opens the transcript at path and scans it from its end with the
// parser parse makes.
func LastText(path string, parse func() LineParser) (string, error) {
	if path == "" {
		return "", errors.New(transcriptNone)
	}
	f, fi, err := file.Open(path)
	switch {
	case errors.Is(err, file.ErrNotRegular):
		return "", errors.New(transcriptNotRegular)
	case err != nil:
		return "", fmt.Errorf(transcriptError, file.PathCause(err))
	}
	defer f.Close()
	return scanBack(f, fi.Size(), parse())
}

// scanBack scans lines from the end of r, whose size is size, until parse
// takes one. Lines that fit in a block are checked in place; a longer line
// is read whole only when it could be a message (maxLine), so a 50 MB line
// costs one skip.
func scanBack(r io.ReaderAt, size int64, parse LineParser) (string, error) {
	buf := make([]byte, tailBlock)
	var block []byte
	end := size // the end of the line being looked for, exclusive
	pos := size // everything from pos on has been scanned
	for pos > 0 && size-pos < tailLimit {
		n := min(int64(tailBlock), pos)
		pos -= n
		block = buf[:n]
		if _, err := r.ReadAt(block, pos); err != nil && err != io.EOF {
			return "", fmt.Errorf(transcriptError, file.PathCause(err))
		}
		for scan := block; ; {
			i := bytes.LastIndexByte(scan, '\n')
			if i < 0 {
				break
			}
			if text, ok := lineText(r, block, pos, pos+int64(i)+1, end, parse); ok {
				return text, nil
			}
			end = pos + int64(i)
			scan = scan[:i]
		}
	}
	if pos == 0 {
		if text, ok := lineText(r, block, 0, 0, end, parse); ok {
			return text, nil
		}
		return "", errors.New(transcriptNoMessage)
	}
	return "", fmt.Errorf(transcriptNoMessageIn, tailLimit>>20)
}

// maxLine is the longest transcript line worth decoding.
const maxLine = 8 << 20

// lineText checks the line [start, end) of r; block holds r's bytes from
// blockPos, and the line is taken from it when it lies inside.
func lineText(r io.ReaderAt, block []byte, blockPos, start, end int64, parse LineParser) (string, bool) {
	if end <= start || end-start > maxLine {
		return "", false
	}
	var line []byte
	if start >= blockPos && end <= blockPos+int64(len(block)) {
		line = block[start-blockPos : end-blockPos]
	} else {
		line = make([]byte, end-start)
		if _, err := r.ReadAt(line, start); err != nil && err != io.EOF {
			return "", false
		}
	}
	return parse(line)
}

// assistantText returns the text blocks of a transcript line when it is an
// assistant message with text.
func assistantText(line []byte) (string, bool) {
	// Most lines are not assistant messages; skip them without decoding.
	if !bytes.Contains(line, []byte(`"assistant"`)) {
		return "", false
	}
	var entry struct {
		Type    string `json:"type"`
		Message struct {
			Content []ContentBlock `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &entry) != nil || entry.Type != "assistant" {
		return "", false
	}
	return JoinText(entry.Message.Content, "text")
}

// ContentBlock is one block of a message's content, as Claude Code's
// transcript and Codex's rollout both write it.
type ContentBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// JoinText joins the text of the blocks of type kind, a line apart; false
// when there is none.
func JoinText(blocks []ContentBlock, kind string) (string, bool) {
	var texts []string
	for _, b := range blocks {
		if b.Type == kind {
			texts = append(texts, b.Text)
		}
	}
	if len(texts) == 0 {
		return "", false
	}
	return strings.Join(texts, "\n"), true
}
