// Package catalog is Spyglass's model of mcp.json: which MCP servers the
// user knows, and how to reach them.
//
// A catalog file lists servers under "mcpServers", keyed by name: stdio
// servers (command, args, env, cwd), Streamable HTTP and legacy SSE servers
// (url, headers), each with the Inspector-specific settings of the official
// MCP Inspector (protocolEra, modernLogLevel, roots, metadata, timeouts,
// taskTtl, autoRefreshOnListChanged, paginatedLists, advertisedExtensions,
// maxFetchRequests, oauth) plus Spyglass's own protocolVersion and
// experimentalCapabilities. FORMAT.md,
// next to this file, documents the format and the command-line rules.
//
// Reading and writing are lossless and minimal: unknown fields, key order
// and layout survive; a field equal to its default is not written; only
// the entries that changed are re-rendered, so saving an unchanged catalog
// changes no byte. Saves are atomic (WriteAtomic) and detect a concurrent
// writer (ErrConflict; Update retries from a fresh read).
//
// Sources: a writable catalog (LoadOrCreate seeds a missing one with Seed),
// a read-only config (LoadReadOnly), or one ad-hoc server (Source). The
// default path is $XDG_CONFIG_HOME/spyglass/mcp.json (DefaultPathFromEnv),
// overridden by $SPYGLASS_CATALOG (EnvCatalog).
//
// Errors are typed (SyntaxError with line and column, EntryError,
// InvalidError, ConflictError, OverrideError) and wrap sentinels; the words
// shown to a person are chosen by the caller (cmd/, ui/). This package never
// imports Fyne.
package catalog
