// Package har records HTTP exchanges and writes them as a HAR 1.2 file
// (HTTP Archive, the format browser devtools and HTTP tools open): a
// Recorder is an http.RoundTripper that keeps each request with its body
// and each response with its body as it is read, Server-Sent Events
// streams included with the time each event arrived. Secrets are masked
// when the file is written, by the same redactor as the event log.
package har
