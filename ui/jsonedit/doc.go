// Package jsonedit is the window's JSON editor: a multi-line text field
// that colours JSON as it is typed (keys, strings, numbers, true/false/null,
// punctuation) and marks the position of a syntax error.
//
// A Fyne Entry cannot colour its text, so the editor is an Entry whose own
// text is drawn transparent (caret, selection, clipboard, undo and the
// keyboard stay the Entry's) under a layer that draws the same text in
// colour, cell for cell, for the rows in view. Both scroll together in one
// container.Scroll.
package jsonedit
