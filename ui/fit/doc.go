// Package fit holds layouts whose MinSize is honest, so that the window's
// minimum size follows what its content needs at the width it has: a row
// that wraps (Fyne's RowWrapLayout remembers the widest row it ever laid
// out) and a centred column of wrapped text (container.NewCenter gives a
// wrapped label no width to wrap in). They keep Spyglass's window within a
// small screen.
package fit
