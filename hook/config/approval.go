package config

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/loophook/loophook/internal/file"
)

// Approval is a version of a .loophook.json a person approved: its text,
// byte for byte, kept outside the project.
type Approval struct {
	Path string    `json:"path"` // the file's absolute path
	At   time.Time `json:"approvedAt"`
	// Text is the approved text; None says the person approved having no
	// file (they deleted it and ran accept).
	Text string `json:"text"`
	None bool   `json:"none,omitempty"`
	// Outside says the directory was no git work tree's top when the
	// person approved: its rules are those of loops started there, never
	// of the work trees below it (ApprovedAbove).
	Outside bool `json:"outside,omitempty"`
}

// dirName is loophook's directory in the user's configuration directory.
const dirName = "loophook"

// approvalFile is where the approval of the file at path is kept: named by
// a hash of the path, which the record holds too, to tell a collision.
func approvalFile(path string) (string, error) {
	root, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf(problemNoConfigDir, err)
	}
	return filepath.Join(root, dirName, "approved", approvalName(path)), nil
}

// approvalName is the name of the approval's file of the file at path.
func approvalName(path string) string {
	h := fnv.New64a()
	h.Write([]byte(path))
	return string(appendName(nil, h.Sum64()))
}

// approvalHash is the hash approvalName names the approval of the
// .loophook.json in dir by, which approvals lists.
func approvalHash(dir string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(dir))
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		h.Write([]byte{filepath.Separator}) // as filepath.Join(dir, File)
	}
	h.Write([]byte(File))
	return h.Sum64()
}

// appendApprovalName appends to b the name of the approval's file of the
// .loophook.json in dir, as approvalName names it.
func appendApprovalName(b []byte, dir string) []byte {
	return appendName(b, approvalHash(dir))
}

// appendName appends an approval's file name for hash h: its 16 hex
// digits and .json, with no allocation on a stop's walk up the tree.
func appendName(b []byte, h uint64) []byte {
	const hex = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, hex[h>>uint(shift)&15])
	}
	return append(b, ".json"...)
}

// readApproval reads the approval of the file at path; nil when there is
// none.
func readApproval(path string) (*Approval, error) {
	at, err := approvalFile(path)
	if err != nil {
		return nil, err
	}
	data, ok, err := readFile(at)
	switch {
	case !ok:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf(problemApprovalUnreadable, at, err)
	}
	var a Approval
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf(problemApprovalDamaged, at)
	}
	if a.Path != path {
		return nil, nil // another file's, whose path hashes alike
	}
	return &a, nil
}

// writeApproval keeps a, atomically: a reader sees the old approval or the
// new one.
func writeApproval(a Approval) error {
	at, err := approvalFile(a.Path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(at), 0o700); err != nil {
		return fmt.Errorf(problemApprovalWrite, err)
	}
	data, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	if err := file.Write(at, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf(problemApprovalWrite, err)
	}
	return nil
}
