package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/spyglass-mcp/spyglass/core/mcpresult"
)

// Skill is one entry of the server's skills/list (the Skills extension,
// SEP-2640).
type Skill = mcpresult.Skill

// SkillFile is one file of a skill, read and checked against the entry.
type SkillFile struct {
	URI     string
	Content []byte
	// Verified is nil when every check of the entry passed, else a
	// *mcpresult.VerifyError naming the check that failed.
	Verified error
	// Raw is the resources/read result as sent.
	Raw json.RawMessage
}

// SkillsConn is what a Conn does for the Skills extension: list the
// entries (no file is read), and read one file of a skill, verified.
type SkillsConn interface {
	ListSkills(ctx context.Context) ([]Skill, CacheHint, error)
	// ReadSkillFile reads uri (the skill's SKILL.md or a file of its
	// entry). A file that fails verification comes back with Verified
	// set and a nil error; err is for a read that did not happen.
	ReadSkillFile(ctx context.Context, skill Skill, uri string) (SkillFile, error)
}

// skillsScreen lists the skills a server offers and loads one on demand:
// selecting a skill shows its entry only; Load reads SKILL.md and checks
// its size, digest and frontmatter against the entry, and each supporting
// file is read only when asked for.
type skillsScreen struct {
	ss     *serverScreens
	skills []Skill
	list   *widget.List
	status *widget.Label
	cache  *cacheBadge
	detail *fyne.Container
	cur    int
}

func (k *skillsScreen) buildUI() fyne.CanvasObject {
	k.cur = -1
	k.list = widget.NewList(
		func() int { return len(k.skills) },
		newBadgedRow,
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(k.skills) {
				return
			}
			sk := k.skills[i]
			name := orDash(firstNonEmpty(sk.Name, sk.URI))
			if sk.Dynamic {
				setBadgedRow(o, name, sk.URI, "dynamic", "warning")
			} else {
				setBadgedRow(o, name, sk.URI, plural(len(sk.Files), "file"), "")
			}
		})
	k.list.OnSelected = func(i widget.ListItemID) {
		if i < len(k.skills) {
			k.onSelect(i)
		}
	}
	k.status = widget.NewLabel("Loading skills…")
	k.status.Importance = widget.LowImportance
	k.status.Wrapping = fyne.TextWrapWord
	k.cache = k.ss.cache.badge()
	refresh := widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), k.onRefresh)
	refresh.Importance = widget.LowImportance
	left := container.NewBorder(container.NewVBox(container.NewBorder(nil, nil, nil, refresh, k.cache.obj), k.status), nil, nil, nil, k.list)
	k.detail = container.NewStack(emptyState("Select a skill to see its entry. Loading it reads its SKILL.md and checks it against the entry."))
	return listSplit(left, k.detail)
}

// offered reports whether the connected server declared the extension.
func (k *skillsScreen) offered(c Conn) (SkillsConn, bool) {
	sc, ok := c.(SkillsConn)
	return sc, ok && mcpresult.OffersSkills(c.Info().ServerCapabilities)
}

func (k *skillsScreen) onRefresh() {
	c := k.ss.conn()
	if c == nil {
		return
	}
	if _, ok := k.offered(c); !ok {
		k.skills = nil
		k.list.Refresh()
		k.status.SetText("This server does not offer skills.")
		k.detail.Objects = []fyne.CanvasObject{emptyState("This server does not offer skills: its capabilities declare no \"" + mcpresult.SkillsExtension + "\" extension (SEP-2640), so Spyglass does not call skills/list.")}
		k.detail.Refresh()
		return
	}
	type listed struct {
		skills []Skill
		hint   CacheHint
	}
	run(k.ss, func(ctx context.Context, c Conn) (listed, error) {
		sc, _ := k.offered(c)
		s, h, err := sc.ListSkills(ctx)
		return listed{s, h}, err
	}, func(l listed, err error) {
		if err != nil {
			head, _ := plainError(err)
			k.status.SetText("Could not list skills. " + head)
			return
		}
		k.skills, k.cur = l.skills, -1
		k.list.UnselectAll()
		k.list.Refresh()
		k.cache.set(l.hint, listContent(l.skills))
		if len(l.skills) == 0 {
			k.status.SetText("The server lists no skills (a listing may be partial).")
		} else {
			k.status.SetText(plural(len(l.skills), "skill") + " · files are read only on Load")
		}
	})
}

// onSelect shows a skill's entry: nothing is read.
func (k *skillsScreen) onSelect(i int) {
	k.cur = i
	sk := k.skills[i]
	title := heading(orDash(firstNonEmpty(sk.Name, sk.URI)))
	title.SizeName = theme.SizeNameSubHeadingText
	title.Wrapping = fyne.TextWrapWord
	desc := wrapLabel(sk.Description)
	uri := wrapLabel(sk.URI)
	uri.Importance = widget.LowImportance
	front := widget.NewLabel(prettyJSON(sk.Frontmatter))
	front.TextStyle.Monospace = true
	front.Wrapping = fyne.TextWrapBreak
	front.Selectable = true

	files := container.NewVBox()
	result := container.NewVBox()
	load := widget.NewButtonWithIcon("Load skill", theme.DownloadIcon(), nil)
	load.Importance = widget.HighImportance
	load.OnTapped = func() { k.onLoad(sk, sk.URI, load, result) }

	var manifest string
	if sk.Dynamic {
		manifest = "Files: dynamic — the server publishes no digests, so its content cannot be verified."
	} else {
		manifest = fmt.Sprintf("Files: %d · %s in all", len(sk.Files), sizeText(int(sk.TotalSize())))
		for _, f := range sk.Files {
			if f.URI == sk.URI {
				files.Add(k.fileRow(sk, f, nil))
				continue
			}
			out := container.NewVBox()
			files.Add(k.fileRow(sk, f, out))
			files.Add(out)
		}
	}
	objs := []fyne.CanvasObject{
		container.NewBorder(nil, nil, nil, rawButton(k.ss.s.w, "skill entry", sk.Raw), title),
		desc, uri,
		heading("Frontmatter (from the entry)"), front,
		heading(manifest), files,
		wrapRow(load), widget.NewSeparator(), result,
	}
	k.detail.Objects = []fyne.CanvasObject{container.NewVScroll(container.NewPadded(container.NewVBox(objs...)))}
	k.detail.Refresh()
}

// fileRow is one file of the entry: URI, size and digest, and for a
// supporting file a Read button that shows it in out.
func (k *skillsScreen) fileRow(sk Skill, f mcpresult.SkillFile, out *fyne.Container) fyne.CanvasObject {
	name := strings.TrimPrefix(f.URI, strings.TrimSuffix(sk.URI, "SKILL.md"))
	l := widget.NewLabel(fmt.Sprintf("%s · %s · %s", name, sizeText(int(f.Size)), shortDigest(f.Digest)))
	l.Truncation = fyne.TextTruncateEllipsis
	if out == nil {
		return l
	}
	b := widget.NewButtonWithIcon("Read", theme.DocumentIcon(), nil)
	b.Importance = widget.LowImportance
	b.OnTapped = func() { k.onLoad(sk, f.URI, b, out) }
	return container.NewBorder(nil, nil, nil, b, l)
}

func shortDigest(d string) string {
	if len(d) > 7+12 {
		return d[:7+12] + "…"
	}
	return d
}

// onLoad reads uri of sk (SKILL.md: the load) and shows the checks and
// the content in out.
func (k *skillsScreen) onLoad(sk Skill, uri string, btn *widget.Button, out *fyne.Container) {
	btn.Disable()
	run(k.ss, func(ctx context.Context, c Conn) (SkillFile, error) {
		sc, ok := c.(SkillsConn)
		if !ok {
			return SkillFile{}, errors.New("this connection cannot read skills")
		}
		return sc.ReadSkillFile(ctx, sk, uri)
	}, func(f SkillFile, err error) {
		btn.Enable()
		if err != nil {
			out.Objects = []fyne.CanvasObject{errorView(err, "Skill error", k.ss.s.w.win)}
			out.Refresh()
			return
		}
		out.Objects = skillFileView(k.ss, sk, f)
		out.Refresh()
	})
}

// skillChecks says, check by check, how a file fared against its entry:
// "✓ size", "✗ digest: …", "– frontmatter (not reached)".
func skillChecks(sk Skill, f SkillFile) (lines []string, ok bool) {
	checks := []string{mcpresult.CheckSize, mcpresult.CheckDigest}
	if f.URI == sk.URI {
		checks = append(checks, mcpresult.CheckFrontmatter)
	}
	var ve *mcpresult.VerifyError
	failed := ""
	if errors.As(f.Verified, &ve) {
		failed = ve.Check
	}
	if failed == mcpresult.CheckListed {
		return []string{"✗ listed: the entry does not list this file, so it was not read"}, false
	}
	reached := true
	for _, c := range checks {
		switch {
		case sk.Dynamic && c != mcpresult.CheckFrontmatter:
			lines = append(lines, "– "+c+": not checked (a dynamic skill has no digests)")
		case c == failed:
			lines = append(lines, "✗ "+c+": "+checkWords(ve))
			reached = false
		case !reached:
			lines = append(lines, "– "+c+": not checked (an earlier check failed)")
		default:
			lines = append(lines, "✓ "+c+checkPassed(c, sk, f))
		}
	}
	return lines, failed == ""
}

func checkPassed(c string, sk Skill, f SkillFile) string {
	e, _ := sk.File(f.URI)
	switch c {
	case mcpresult.CheckSize:
		return ": " + plural(len(f.Content), "byte") + ", as listed"
	case mcpresult.CheckDigest:
		return ": " + shortDigest(e.Digest) + ", as listed"
	}
	return ": the same fields as the entry's"
}

func checkWords(ve *mcpresult.VerifyError) string {
	switch ve.Check {
	case mcpresult.CheckSize:
		return "the file has " + ve.Got + ", the entry says " + ve.Want
	case mcpresult.CheckDigest:
		return "the file hashes to " + shortDigest(ve.Got) + ", the entry says " + shortDigest(ve.Want)
	}
	return "SKILL.md's frontmatter differs from the entry's: " + ve.Got
}

// skillFileView shows a file's checks, then its content: SKILL.md as its
// frontmatter and body.
func skillFileView(ss *serverScreens, sk Skill, f SkillFile) []fyne.CanvasObject {
	lines, ok := skillChecks(sk, f)
	head := "Verified against the entry"
	level := widget.SuccessImportance
	if !ok {
		head = "Failed verification: do not use this content as the skill's"
		level = widget.DangerImportance
	}
	h := heading(head)
	h.Importance = level
	h.Wrapping = fyne.TextWrapWord
	objs := []fyne.CanvasObject{container.NewBorder(nil, nil, nil, rawButton(ss.s.w, "resources/read result", f.Raw), h)}
	for _, l := range lines {
		w := wrapLabel(l)
		if strings.HasPrefix(l, "✗") {
			w.Importance = widget.DangerImportance
		}
		objs = append(objs, w)
	}
	if len(f.Content) == 0 && f.Verified != nil {
		return objs
	}
	body := f.Content
	if f.URI == sk.URI {
		if front, rest, found := mcpresult.SplitSkillMD(f.Content); found {
			fm := widget.NewLabel(strings.TrimSpace(string(front)))
			fm.TextStyle.Monospace = true
			fm.Wrapping = fyne.TextWrapBreak
			objs = append(objs, heading("Frontmatter (from SKILL.md)"), fm)
			body = rest
		}
		objs = append(objs, heading("Body"))
	}
	return append(objs, textView(string(body), "text/markdown"))
}

// plural is a count with its noun: "1 skill", "2 skills", "0 errors". Every
// count the window shows in words goes through it ("1 tool calls" and
// "1 errors" read as a slip).
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
