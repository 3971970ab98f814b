package sampling

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spyglass-mcp/spyglass/core/catalog"
)

// Profiles is the saved set of testing profiles and which one is active.
type Profiles struct {
	Active   string    `json:"active"`
	Profiles []Profile `json:"profiles"`
}

// ErrNoProfile is returned when a named profile does not exist.
var ErrNoProfile = errors.New("sampling: no such profile")

// ManualReview is the built-in profile active by default: a person sees
// and answers every sampling request; a mock answers by itself only once
// the user made it the active profile.
const ManualReview = "Manual Review"

// DefaultProfiles is the built-in set with Manual Review active.
func DefaultProfiles() *Profiles {
	return &Profiles{Active: ManualReview, Profiles: BuiltinProfiles()}
}

// Get returns the named profile.
func (ps *Profiles) Get(name string) (Profile, error) {
	for _, p := range ps.Profiles {
		if p.Name == name {
			return p, nil
		}
	}
	return Profile{}, fmt.Errorf("%w: %q", ErrNoProfile, name)
}

// Current returns the active profile. When Active is unset or unknown it
// is the first profile that does not answer by itself, or Manual Review:
// nothing is answered silently that the user did not choose.
func (ps *Profiles) Current() Profile {
	if p, err := ps.Get(ps.Active); err == nil {
		return p
	}
	for _, p := range ps.Profiles {
		if !p.AutoRespond {
			return p
		}
	}
	return Profile{Name: ManualReview, Provider: ProviderManual}
}

// Put adds or replaces a profile by name.
func (ps *Profiles) Put(p Profile) {
	for i := range ps.Profiles {
		if ps.Profiles[i].Name == p.Name {
			ps.Profiles[i] = p
			return
		}
	}
	ps.Profiles = append(ps.Profiles, p)
}

// Delete removes a profile by name.
func (ps *Profiles) Delete(name string) error {
	for i := range ps.Profiles {
		if ps.Profiles[i].Name == name {
			ps.Profiles = append(ps.Profiles[:i], ps.Profiles[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("%w: %q", ErrNoProfile, name)
}

// Load reads profiles from a file; a missing file gives the defaults.
func Load(file string) (*Profiles, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return DefaultProfiles(), nil
	}
	if err != nil {
		return nil, err
	}
	var ps Profiles
	if err := json.Unmarshal(b, &ps); err != nil {
		return nil, fmt.Errorf("sampling: reading %s: %w", file, err)
	}
	return &ps, nil
}

// Save writes profiles atomically (see catalog.WriteAtomic).
func Save(file string, ps *Profiles) error {
	b, err := json.MarshalIndent(ps, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return catalog.WriteAtomic(file, append(b, '\n'), nil)
}
