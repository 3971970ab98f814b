package catalog

import (
	"path/filepath"
	"runtime"

	"github.com/adrg/xdg"
)

// EnvCatalog names the environment variable that overrides the default
// catalog path. It is ignored when an ad-hoc server is given.
const EnvCatalog = "SPYGLASS_CATALOG"

// AppDir and FileName make up the default catalog path under the user's
// configuration folder.
const (
	AppDir   = "spyglass"
	FileName = "mcp.json"
)

// DefaultPathFromEnv returns $XDG_CONFIG_HOME/spyglass/mcp.json
// (~/.config/spyglass/mcp.json on Linux, the platform's own configuration
// folder elsewhere), computed from getenv rather than from
// github.com/adrg/xdg's values, which are cached when the program starts;
// tests can thus set XDG_CONFIG_HOME. It does not consult SPYGLASS_CATALOG.
func DefaultPathFromEnv(getenv func(string) string) string {
	return filepath.Join(configHome(getenv), AppDir, FileName)
}

func configHome(getenv func(string) string) string {
	// The XDG spec ignores a relative XDG_CONFIG_HOME.
	if v := getenv("XDG_CONFIG_HOME"); v != "" && filepath.IsAbs(v) {
		return v
	}
	switch runtime.GOOS {
	case "darwin", "ios", "windows", "plan9":
		// xdg knows these platforms' own folders, which do not depend on
		// XDG_CONFIG_HOME, so its cached value is current.
		return xdg.ConfigHome
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config")
	}
	return xdg.ConfigHome
}
