package memory

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loophook/loophook/criteria"
)

func TestLatestSession(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "store")}
	if session, ok, err := s.LatestSession(); session != "" || ok || err != nil {
		t.Errorf("LatestSession of no store = %q, %v, %v", session, ok, err)
	}
	remember := func(session string, at time.Time) {
		t.Helper()
		if err := s.Update(session, func(Memory, bool, error) Memory { return Memory{Unchanged: 1, Rule: "unmet"} }); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(s.File(session), at, at); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	for _, tc := range []struct {
		session string // the id the hook was given
		want    string // what LatestSession names it
	}{
		{"s1", "s1"},
		{"", ""},
		{"a/../../escape", "id-"}, // hashed into its file name
		{"s2", "s2"},
	} {
		now = now.Add(time.Second)
		remember(tc.session, now)
		got, ok, err := s.LatestSession()
		if !ok || err != nil {
			t.Fatalf("LatestSession after %q = %q, %v, %v", tc.session, got, ok, err)
		}
		if !strings.HasPrefix(got, tc.want) || tc.want != "id-" && got != tc.want {
			t.Errorf("LatestSession after %q = %q, want %q", tc.session, got, tc.want)
		}
		// Whatever the name, it reads the memory the hook wrote.
		if m, ok, err := s.Read(got); !ok || err != nil || m.Unchanged != 1 {
			t.Errorf("Read(%q) = %+v, %v, %v", got, m, ok, err)
		}
	}
}

// TestMemoryEqualSeesEveryField holds Memory.equal to every field: a memory
// that differs from another in any one field is not equal to it, so that a
// field added to Memory and forgotten in equal is never left unwritten.
func TestMemoryEqualSeesEveryField(t *testing.T) {
	base := Memory{Seen: []string{"a"}, Unchanged: 1, Continuations: 2, Rule: criteria.RuleUnmet,
		Last: &Answered{Key: "k", At: 1, OK: true, Reason: "r", Rule: criteria.RuleUnmet}}
	if !base.equal(base) {
		t.Fatal("a memory is not equal to itself")
	}
	differ := func(name string, v reflect.Value) {
		t.Helper()
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Slice:
			v.Set(reflect.Append(v, reflect.ValueOf("y")))
		default:
			t.Fatalf("field %s: a %s; teach this test (and Memory.equal) about it", name, v.Kind())
		}
	}
	mt := reflect.TypeOf(base)
	for i := range mt.NumField() {
		m := base
		m.Seen = slices.Clone(base.Seen)
		last := *base.Last
		m.Last = &last
		f := reflect.ValueOf(&m).Elem().Field(i)
		if f.Kind() == reflect.Pointer {
			for j := range f.Elem().NumField() {
				l := *base.Last
				m.Last = &l
				differ(mt.Field(i).Name+"."+f.Elem().Type().Field(j).Name, reflect.ValueOf(m.Last).Elem().Field(j))
				if m.equal(base) || base.equal(m) {
					t.Errorf("memories that differ in %s.%s are equal", mt.Field(i).Name, f.Elem().Type().Field(j).Name)
				}
			}
			m.Last = nil
		} else {
			differ(mt.Field(i).Name, f)
		}
		if m.equal(base) || base.equal(m) {
			t.Errorf("memories that differ in %s are equal", mt.Field(i).Name)
		}
	}
}
