package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

// runImport runs `spyglass --import FILE [--catalog PATH]`: it merges the
// servers of a Claude Desktop / Cursor / Claude Code file ("mcpServers") or
// a VS Code file ("servers", "inputs") into the writable catalog (created
// and seeded when missing), prints what was added and what clashed (never
// overwritten), and exits non-zero when the file is unreadable or bad —
// then nothing is written.
func runImport(inv *Invocation, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "spyglass: %s\n", explainCatalogError(err))
		return code
	}
	src, err := inv.Source()
	if err != nil {
		return fail(catalogExitUsage, err)
	}
	data, err := catalog.ReadFile(inv.ImportFile)
	if link := (*catalog.LinkError)(nil); errors.As(err, &link) {
		return fail(catalogExitUsage, fmt.Errorf("--import %s is a symbolic link to %s, which does not exist", link.Path, link.Target))
	}
	if err != nil {
		return fail(catalogExitUsage, fmt.Errorf("--import: %w", err))
	}
	im, err := catalog.ParseImport(inv.ImportFile, data)
	if err != nil {
		fmt.Fprintf(stderr, "spyglass: %s\n", explainCatalogError(err))
		fmt.Fprintf(stderr, "spyglass: nothing imported; fix %s and run again\n", inv.ImportFile)
		return catalogExitUsage
	}
	_, statErr := os.Stat(src.Path)
	var res *catalog.ImportResult
	err = catalog.Update(src.Path, nil, func(c *catalog.Catalog) error {
		res = c.Import(im)
		return nil
	})
	if err != nil {
		code := catalogExitFail
		var syn *catalog.SyntaxError
		if errors.As(err, &syn) {
			code = catalogExitUsage
		}
		return fail(code, err)
	}
	if errors.Is(statErr, os.ErrNotExist) {
		fmt.Fprintf(stderr, "spyglass: created %s with the demo and sample servers\n", src.Path)
	}
	printImport(stdout, inv.ImportFile, src.Path, res)
	return catalogExitOK
}

func printImport(w io.Writer, file, path string, res *catalog.ImportResult) {
	kind := "Claude Desktop / Cursor / Claude Code"
	if res.Format == catalog.FormatVSCode {
		kind = "VS Code"
	}
	fmt.Fprintf(w, "Importing %s (%s format) into %s\n", file, kind, path)
	for _, n := range res.Added {
		fmt.Fprintf(w, "  added    %s\n", n)
	}
	for _, n := range res.Clashes {
		fmt.Fprintf(w, "  skipped  %s: the catalog already has a server of that name (left unchanged; rename one to import it)\n", n)
	}
	for _, in := range res.Inputs {
		decl := "declared in the file's \"inputs\""
		if !in.Declared {
			decl = "not declared in the file's \"inputs\""
		}
		fmt.Fprintf(w, "  note     %s: ${input:%s} in %s is kept as written (%s); put the real value in the catalog before connecting\n", in.Server, in.ID, in.Field, decl)
	}
	for _, n := range res.SecretsNotWritten {
		fmt.Fprintf(w, "  note     %s: its oauth.clientSecret was not copied (Spyglass never writes secrets into the catalog)\n", n)
	}
	fmt.Fprintf(w, "%d added, %d skipped\n", len(res.Added), len(res.Clashes))
}
