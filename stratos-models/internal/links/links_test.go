package links

import (
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-models/data"
)

func TestParseShipped(t *testing.T) {
	entries, f, err := Parse(data.LinksName, data.Links())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.ReviewedAgainst) != 40 || len(entries) == 0 {
		t.Fatalf("reviewedAgainst %q, %d entries", f.ReviewedAgainst, len(entries))
	}
	for _, g := range f.Groups {
		for i := 1; i < len(g.Links); i++ {
			if g.Links[i-1].NativeID >= g.Links[i].NativeID {
				t.Errorf("group %s: links not sorted by nativeId at %q (keep the reviewed file easy to scan)", g.Provider, g.Links[i].NativeID)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	const head = `{"schema": "stratos.models.links.v1", "reviewedAgainst": "x", "groups": [`
	cases := map[string]string{
		`{"schema": "v0", "groups": []}`:                                                                                             `links.json: schema is "v0"`,
		head + `{"provider": "p", "reason": "r", "links": [], "extra": 1}]}`:                                                         `unknown field "extra"`,
		head + `{"provider": "p", "reason": " ", "links": []}]}`:                                                                     "groups[0] needs a provider and a reason",
		head + `{"provider": "p", "reason": "r", "links": [{"nativeId": "n", "model": "no-slash"}]}]}`:                               `groups[0].links[0] needs a nativeId and a model of the form <creator>/<model>`,
		head + `{"provider": "p", "reason": "r", "links": [{"nativeId": "", "model": "a/b"}]}]}`:                                     "groups[0].links[0] needs a nativeId",
		head + `{"provider": "p", "reason": "r", "links": [{"nativeId": "n", "model": "a/b"}, {"nativeId": "n", "model": "a/c"}]}]}`: "groups[0].links[0] and groups[0].links[1] both link p:n",
	}
	for doc, want := range cases {
		if _, _, err := Parse("links.json", []byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want %q", doc, err, want)
		}
	}
}
