// Package ui is Spyglass's desktop window, written with Fyne. It talks to
// the engine in core/ only through small interfaces it declares itself;
// cmd/ wires the two together.
package ui
