// Package sampling answers a server's sampling/createMessage requests
// without a real model: testing profiles that pick a provider — Manual (a
// person types each response) or Mock/Template (an automatic answer from a
// template, with per-model overrides matched against the request's model
// hints) — as the client-feature handlers design describes.
//
// Everything works on the raw JSON of the request, so nothing the server
// sent is lost, and on the wire shape of the 2025-11-25 specification,
// including sampling with tools: a mock profile may answer with a tool call
// (stopReason "toolUse") and ends the loop with text once tool results come
// back.
package sampling
