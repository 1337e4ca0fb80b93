package schema

import (
	"reflect"
	"testing"
)

// configDocuments touch every keyword of config.schema.json, good and bad.
// An object has at most one unknown member: the library lists several in
// map order.
var configDocuments = []string{
	`{}`, `[]`, `null`, `"checks"`,
	`{"checks":[],"budget":{}}`,
	`{"checks":[{"name":"tests","run":"go test ./...","criterion":"tests pass","timeout":"5m","exclusive":true},{"name":"vet","run":"go vet ./..."}],"budget":{"tokens":2000000,"turns":40,"duration":"3h"}}`,
	`{"checks":{},"budget":[]}`,
	`{"checks":[1,null,"x",{}]}`,
	`{"checks":[{"name":"","run":"","criterion":"","timeout":""}]}`,
	`{"checks":[{"name":1,"run":true,"criterion":null,"timeout":300}]}`,
	`{"checks":[{"name":"a","run":"b","timout":"5m"}]}`,
	`{"checks":[{"name":"a","run":"b","exclusive":true},{"name":"c","run":"d","exclusive":false},{"name":"e","run":"f","exclusive":"yes"},{"name":"g","run":"h","exclusive":null}]}`,
	`{"checks":[{"name":"a","run":"b","timeout":"0s"},{"name":"a","run":"b","timeout":"-5m"},{"name":"a","run":"b","timeout":"5"},{"name":"a","run":"b","timeout":"1m30s"}]}`,
	`{"checks":[{"name":"a","run":"b","timeout":"0.5s"},{"name":"a","run":"b","timeout":"90s"},{"name":"a","run":"b","timeout":"1.5h"},{"name":"a","run":"b","timeout":"500ms"},{"name":"a","run":"b","timeout":"0.0s"}]}`,
	`{"budget":{"tokens":0,"turns":1.5,"duration":"3 hours"}}`,
	`{"budget":{"tokens":"1","turns":-1,"duration":3}}`,
	`{"budget":{"dollars":5}}`,
	`{"check":[]}`,
}

func TestValidateConfigAgreesWithSchemaLibrary(t *testing.T) {
	d := Dialect{Name: "config", ID: ConfigID, Schema: ConfigSchema}
	for _, text := range configDocuments {
		doc, ok := decodeJSON(t, []byte(text))
		if !ok {
			t.Fatalf("test document is not JSON: %s", text)
		}
		got, want := ValidateConfig(doc), reference(t, d, doc)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s\n got: %q\nwant: %q", text, got, want)
		}
	}
}
