package catalog

import "slices"

// Removed is a server taken out of the catalog by Remove: what Restore
// needs to put it back where it was.
type Removed struct {
	// Name is the server's name.
	Name string
	// Index is its position among the catalog's servers.
	Index int
	// Server is its value (the in-memory client secret included).
	Server Server
	extras []extraMember // its fields Spyglass does not know, kept as written
}

// Remove deletes the named server like Delete and returns what Restore
// needs to undo it; ok is false when there is no such server.
func (c *Catalog) Remove(name string) (r *Removed, ok bool) {
	i := c.find(name)
	if i < 0 {
		return nil, false
	}
	e := c.entries[i]
	r = &Removed{Name: e.name, Index: i, Server: e.cur.Clone(), extras: slices.Clone(e.extras)}
	if e.orig != nil && e.orig.obj != nil {
		for _, om := range e.orig.obj.members {
			if lookup(serverFields, om.key) == nil {
				r.extras = append(r.extras, extraMember{key: om.key, raw: compact(c.data[om.valStart:om.valEnd])})
			}
		}
	}
	c.entries = slices.Delete(c.entries, i, i+1)
	return r, true
}

// Restore puts a removed server back at its position (or last, when the
// catalog has fewer servers now), with the fields Spyglass does not know.
// Comments that were inside the entry are not restored. It fails with
// ErrExists when a server of that name was added meanwhile.
func (c *Catalog) Restore(r *Removed) error {
	if c.find(r.Name) >= 0 {
		return &EntryError{Server: r.Name, Err: ErrExists}
	}
	if err := r.Server.Validate(); err != nil {
		err.(*EntryError).Server = r.Name
		return err
	}
	i := min(r.Index, len(c.entries))
	c.entries = slices.Insert(c.entries, i, &entry{name: r.Name, cur: r.Server.Clone(), extras: slices.Clone(r.extras)})
	return nil
}
