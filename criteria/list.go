package criteria

import (
	"iter"
	"slices"
	"strings"
)

// Criteria are a state's criteria in order: the listed ones, then the
// criteriaStatus entries for names the list does not name, sorted by name.
// They are kept compactly, each name as a place in one text and each entry
// as a byte: a state can have tens of thousands, and the hook reads them at
// the end of every turn.
type Criteria struct {
	text   string
	names  []span
	status []uint8 // each criterion's entry, packed; see pack
}

// span is where a string is in a text.
type span struct{ off, len uint32 }

// CriteriaOf makes Criteria of a list. A Verification that is not one of
// Verifications reads back as "".
func CriteriaOf(list ...Criterion) Criteria {
	var text strings.Builder
	c := Criteria{names: make([]span, len(list)), status: make([]uint8, len(list))}
	for i, x := range list {
		c.names[i] = span{uint32(text.Len()), uint32(len(x.Name))}
		text.WriteString(x.Name)
		c.status[i] = pack(x.Met, slices.Index(Verifications, x.Verification)+1)
	}
	c.text = text.String()
	return c
}

// pack packs an entry into a byte: whether it is met, and 1 + the index of
// its verification in Verifications, or 0 for none. The top bit is free for
// the decoder to mark the criteria whose entry it has read.
func pack(met bool, verification int) uint8 {
	p := uint8(verification) << 1
	if met {
		p |= 1
	}
	return p
}

// Len is how many criteria there are.
func (c Criteria) Len() int { return len(c.names) }

// At returns the i'th criterion.
func (c Criteria) At(i int) Criterion {
	sp, p := c.names[i], c.status[i]
	x := Criterion{Name: c.text[sp.off : sp.off+sp.len], Met: p&1 != 0}
	if v := p >> 1 & 7; v > 0 {
		x.Verification = Verifications[v-1]
	}
	return x
}

// All yields the criteria in order.
func (c Criteria) All() iter.Seq[Criterion] {
	return func(yield func(Criterion) bool) {
		for i := range c.names {
			if !yield(c.At(i)) {
				return
			}
		}
	}
}

// List returns the criteria as a slice.
func (c Criteria) List() []Criterion {
	return slices.Collect(c.All())
}
