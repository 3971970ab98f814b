package redact

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
)

// shape is one row of testdata/shapes.json, the one table of secret
// shapes that every output is tested against.
type shape struct {
	Shape  string `json:"shape"`
	Name   string `json:"name"`
	Secret bool   `json:"secret"`
	Value  string `json:"-"`
}

func loadShapes(t *testing.T) []shape {
	t.Helper()
	b, err := os.ReadFile("testdata/shapes.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Rows []shape }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for i := range doc.Rows {
		doc.Rows[i].Value = fmt.Sprintf("sv%03dq", i)
	}
	return doc.Rows
}

func TestPolicyTable(t *testing.T) {
	rows := loadShapes(t)
	u := &url.URL{Scheme: "https", Host: "api.example.com", Path: "/mcp/passthrough/session_count"}
	var query []string
	var args []string
	for _, r := range rows {
		switch r.Shape {
		case "env", "header", "query":
			judge := Name
			if r.Shape == "query" {
				judge = queryName // a URL's OAuth code and state too
			}
			if judge(r.Name) != r.Secret {
				t.Errorf("%s %q judged secret=%v, want %v", r.Shape, r.Name, !r.Secret, r.Secret)
			}
			if r.Shape == "query" {
				query = append(query, r.Name+"="+r.Value)
			}
		case "userinfo":
			u.User = url.UserPassword(r.Name, r.Value)
		case "flag":
			args = append(args, r.Name, r.Value)
		case "flag=", "assign":
			args = append(args, r.Name+"="+r.Value)
		case "headerarg":
			args = append(args, "--header", r.Name+": "+r.Value)
		default:
			t.Fatalf("unknown shape %q", r.Shape)
		}
	}
	u.RawQuery = strings.Join(query, "&")
	maskedURL, urlSecrets := URL(u.String()), URLSecrets(u.String())
	maskedArgs, argSecrets := strings.Join(Args(args), " "), ArgSecrets(args)
	if !strings.Contains(maskedURL, "/mcp/passthrough/session_count?") {
		t.Errorf("the URL path changed: %s", maskedURL)
	}
	for _, r := range rows {
		var out string
		var found []string
		switch r.Shape {
		case "query", "userinfo":
			out, found = maskedURL, urlSecrets
		case "flag", "flag=", "assign", "headerarg":
			out, found = maskedArgs, argSecrets
		default:
			continue
		}
		if strings.Contains(out, r.Value) == r.Secret {
			t.Errorf("%s %s: secret=%v, but the value is %s in %s", r.Shape, r.Name, r.Secret, map[bool]string{true: "shown", false: "hidden"}[!r.Secret], out)
		}
		if slices.Contains(found, r.Value) != r.Secret {
			t.Errorf("%s %s: secret=%v, but the list of secrets %v disagrees", r.Shape, r.Name, r.Secret, found)
		}
	}
	if !strings.Contains(maskedURL, "sig="+Mask) || !strings.Contains(maskedURL, ":"+Mask+"@") {
		t.Errorf("masked URL %s", maskedURL)
	}
	if !strings.Contains(maskedArgs, "--token "+Mask) || !strings.Contains(maskedArgs, "--password="+Mask) {
		t.Errorf("masked args %s", maskedArgs)
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"DB_PWD": "db pwd", "apiKey": "api key", "X-Api-Key": "x api key", "clientSecret": "client secret",
		"HTTPProxy": "httpproxy", "--token-file": "token file", "": "",
	} {
		if got := strings.Join(words(in), " "); got != want {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestURLForms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://x/cb#access_token=at1&token_type=bearer", "https://x/cb#access_token=" + Mask + "&token_type=bearer"},
		{"https://x/a?token=a%2Fb&page=2", "https://x/a?token=" + Mask + "&page=2"},
		{"https://x/a?flag&token=", "https://x/a?flag&token="},
		{"not a url ?token=x", "not a url ?token=x"},
		{"http://[bad/?token=x", "http://[bad/?token=x"},
		{"", ""},
	} {
		if got := URL(tc.in); got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := URLSecrets("https://x/a?token=a%2Fb"); !slices.Contains(got, "a/b") || !slices.Contains(got, "a%2Fb") {
		t.Errorf("URLSecrets lacks a form of the value: %q", got)
	}
}

func TestArgsForms(t *testing.T) {
	in := []string{"server.js", "--token", "--mode", "x", "--url=https://x/?token=t1", "https://y/?sig=s1", "---token", "v", "--api-key"}
	want := []string{"server.js", "--token", "--mode", "x", "--url=https://x/?token=" + Mask, "https://y/?sig=" + Mask, "---token", "v", "--api-key"}
	if got := Args(in); !slices.Equal(got, want) {
		t.Errorf("Args(%q) =\n %q, want\n %q", in, got, want)
	}
	if in[4] != "--url=https://x/?token=t1" {
		t.Error("Args changed its input")
	}
	if got := ArgSecrets(in); !slices.Equal(got, []string{"t1", "s1"}) {
		t.Errorf("ArgSecrets = %q", got)
	}
	hdr := []string{"--header", "Authorization: Bearer abc123", "--header", "Authorization:Bearer"}
	if got := Args(hdr); !slices.Equal(got, []string{"--header", "Authorization: " + Mask, "--header", "Authorization: " + Mask}) {
		t.Errorf("Args(%q) = %q", hdr, got)
	}
	if got := ArgSecrets(hdr); !slices.Contains(got, "abc123") || !slices.Contains(got, "Bearer abc123") {
		t.Errorf("ArgSecrets(%q) = %q, want the token with and without its scheme", hdr, got)
	}
}
