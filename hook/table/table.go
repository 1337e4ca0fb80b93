// Package table lines up the columns of what loophook prints, by the width
// a person sees, with ANSI styles shown only in colour.
package table

import (
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// ANSI styles, used only on a terminal that wants colour.
const (
	Bold  = "\x1b[1m"
	Green = "\x1b[32m"
	Red   = "\x1b[31m"
	Reset = "\x1b[0m"
)

// Grid lines up columns by the width a person sees. text/tabwriter would
// count colour codes as width and skew every coloured column.
type Grid struct {
	rows [][]Cell
}

// Cell is a grid's cell.
type Cell struct {
	Text  string
	Style string // an ANSI style, shown only in colour; "" for none
}

// Row adds a row of cells.
func (g *Grid) Row(cells ...Cell) { g.rows = append(g.rows, cells) }

// Write writes the rows to w, in colour or not, each cell on one line
// with nothing in it a terminal would act on (OneLine).
func (g *Grid) Write(w io.Writer, colour bool) error {
	var widths []int
	for _, r := range g.rows {
		for i := range r {
			r[i].Text = OneLine(r[i].Text)
		}
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c.Text))
		}
	}
	var b strings.Builder
	for _, r := range g.rows {
		for i, c := range r {
			if colour && c.Style != "" {
				b.WriteString(c.Style + c.Text + Reset)
			} else {
				b.WriteString(c.Text)
			}
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c.Text)+2))
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Colourful reports whether w is a terminal that wants colour: not when
// NO_COLOR is set (no-color.org) or the terminal is dumb.
func Colourful(w io.Writer) bool {
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" && Terminal(w)
}

// Terminal reports whether w is a terminal.
func Terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
