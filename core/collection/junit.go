package collection

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// JUnit XML, in the shape CI systems read (the Ant/Surefire junit
// schema's testsuites/testsuite/testcase/failure).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one testsuite named after
// the collection, one testcase per call, a failure per failed call
// listing each expectation that did not hold.
func (r *Report) WriteJUnit(w io.Writer) error {
	suite := junitSuite{Name: r.Collection.Name, Tests: len(r.Results), Failures: r.Failed(),
		Time: seconds(r.Duration.Seconds()), Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05")}
	for _, res := range r.Results {
		c := junitCase{Name: res.Call.Label(), Classname: r.Collection.Name, Time: seconds(res.Outcome.Duration.Seconds())}
		if !res.Passed() {
			var lines []string
			for _, f := range res.Failures {
				lines = append(lines, f.Expectation+": "+f.Message)
				for _, ch := range f.Changes {
					lines = append(lines, "  "+ch.Describe(200))
				}
			}
			c.Failure = &junitFailure{Message: res.Failures[0].Expectation + ": " + res.Failures[0].Message,
				Type: "expectation", Text: strings.Join(lines, "\n")}
		}
		suite.Cases = append(suite.Cases, c)
	}
	doc := junitSuites{Name: r.Collection.Name, Tests: suite.Tests, Failures: suite.Failures, Time: suite.Time, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }
