// Package refusal is an error a person can act on: what is wrong, and what
// to do about it. The command line prints the error, then its hint.
package refusal

import "fmt"

// A Refusal is what is wrong (Msg) and what to do about it (Advice, "" for
// nothing more to say).
type Refusal struct{ Msg, Advice string }

func (r *Refusal) Error() string { return r.Msg }

// Hint says what to do about it.
func (r *Refusal) Hint() string { return r.Advice }

// New is a Refusal with hint, its message formatted as fmt.Sprintf does.
func New(hint, format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...), Advice: hint}
}
