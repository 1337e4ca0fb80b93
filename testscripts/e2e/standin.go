//go:build e2e

package e2e

import (
	"net/http/httptest"
	"sync"
)

// standIn is what every host's stand-in model API shares: its server, the
// lock over what it records, and what went wrong inside its handler, which
// cannot fail the test from its goroutine.
type standIn struct {
	srv  *httptest.Server
	mu   sync.Mutex
	errs []error
}

func (s *standIn) URL() string { return s.srv.URL }

// failures returns what went wrong inside the handler.
func (s *standIn) failures() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errs...)
}

func (s *standIn) fail(err error) {
	s.mu.Lock()
	s.errs = append(s.errs, err)
	s.mu.Unlock()
}
