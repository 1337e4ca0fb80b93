package statefile

import (
	"testing"
)

func TestCancelled(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, was string
	}{
		{"compact", `{"spec":"x","status":"in_progress","iteration":2}`, `{"spec":"x","status":"cancelled","iteration":2}`, `"in_progress"`},
		{"spaced", "{ \"status\" :  \"active\" , \"a\":1 }", "{ \"status\" :  \"cancelled\" , \"a\":1 }", `"active"`},
		{"last member", "{\"a\":[1,2],\"status\":\"paused\"}\n", "{\"a\":[1,2],\"status\":\"cancelled\"}\n", `"paused"`},
		{"not a string", `{"status":42}`, `{"status":"cancelled"}`, `42`},
		{"nested status untouched", `{"x":{"status":"in_progress"}}`, `{"status":"cancelled","x":{"status":"in_progress"}}`, ``},
		{"absent compact", `{"spec":"x"}`, `{"status":"cancelled","spec":"x"}`, ``},
		{"absent pretty", "{\n  \"spec\": \"x\"\n}\n", "{\n  \"status\": \"cancelled\",\n  \"spec\": \"x\"\n}\n", ``},
		{"absent CRLF", "{\r\n\t\"spec\" : \"x\"\r\n}", "{\r\n\t\"status\" : \"cancelled\",\r\n\t\"spec\" : \"x\"\r\n}", ``},
		{"empty object", `{}`, `{"status":"cancelled"}`, ``},
		{"empty object spaced", "{ \n}", "{ \n\"status\":\"cancelled\"}", ``},
		{"BOM", "\xef\xbb\xbf{\"status\":\"in_progress\"}", "\xef\xbb\xbf{\"status\":\"cancelled\"}", `"in_progress"`},
		{"twice", `{"status":"a","b":1,"status":"c"}`, `{"status":"cancelled","b":1,"status":"cancelled"}`, `"c"`},
		{"escaped key", `{"st\u0061tus":"in_progress"}`, `{"st\u0061tus":"cancelled"}`, `"in_progress"`},
		{"number before", `{"n":1.50,"status":"x"}`, `{"n":1.50,"status":"cancelled"}`, `"x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, was, err := cancelled([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want || was != tc.was {
				t.Errorf("cancelled(%q) = %q, was %q; want %q, was %q", tc.in, out, was, tc.want, tc.was)
			}
		})
	}
	for _, in := range []string{``, `[]`, `{"a":}`, `{"a":1}{}`, `"status"`} {
		if out, _, err := cancelled([]byte(in)); err == nil {
			t.Errorf("cancelled(%q) = %q, want an error", in, out)
		}
	}
}
