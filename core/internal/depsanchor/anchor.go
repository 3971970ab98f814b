// Package depsanchor keeps the product card's dependencies in go.mod until
// the packages that use them land. Delete it once every import is real.
package depsanchor

import (
	_ "github.com/adrg/xdg"
	_ "github.com/mark3labs/mcp-go/client"
	_ "github.com/mark3labs/mcp-go/server"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/yosida95/uritemplate/v3"
	_ "github.com/zalando/go-keyring"
	_ "golang.org/x/oauth2"
)
