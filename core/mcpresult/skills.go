package mcpresult

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// SkillsExtension is the Skills extension's identifier (SEP-2640), the key
// a server declares under capabilities.extensions.
const SkillsExtension = "io.modelcontextprotocol/skills"

// OffersSkills reports whether server capabilities (as sent) declare the
// Skills extension.
func OffersSkills(caps json.RawMessage) bool {
	var c struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(caps, &c) != nil {
		return false
	}
	v, ok := c.Extensions[SkillsExtension]
	return ok && string(bytes.TrimSpace(v)) != "null"
}

// SkillFile is one file of a skill's manifest: its resource URI, the
// SHA-256 digest ("sha256:" and 64 lowercase hex digits) and the size in
// bytes of its raw content.
type SkillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// Skill is one skill entry of skills/list or skills/get.
type Skill struct {
	// URI is the resource URI of the skill's SKILL.md.
	URI string
	// Name and Description are the frontmatter's.
	Name, Description string
	// Frontmatter is the entry's frontmatter object as sent.
	Frontmatter json.RawMessage
	// Files is the manifest (SKILL.md and every supporting file); nil
	// when Dynamic.
	Files []SkillFile
	// Dynamic is true when resources is "dynamic": no digests, nothing to
	// verify the content against.
	Dynamic bool
	// Raw is the entry exactly as sent.
	Raw json.RawMessage
}

// File returns the manifest entry of uri.
func (s Skill) File(uri string) (SkillFile, bool) {
	for _, f := range s.Files {
		if f.URI == uri {
			return f, true
		}
	}
	return SkillFile{}, false
}

// TotalSize is the sum of the manifest's sizes.
func (s Skill) TotalSize() int64 {
	var n int64
	for _, f := range s.Files {
		n += f.Size
	}
	return n
}

// DecodeSkills decodes the entries of skills/list (every page's, in
// order). An entry that cannot be loaded (no uri, no frontmatter, no valid
// resources) is kept and reported.
func DecodeSkills(raws []json.RawMessage) ([]Skill, Problems) {
	var ps Problems
	out := make([]Skill, len(raws))
	for i, raw := range raws {
		out[i] = decodeSkill(raw, "/skills/"+strconv.Itoa(i), &ps)
	}
	return out, ps
}

// SkillResult is the answer to skills/get.
type SkillResult struct {
	Skill    Skill
	Cache    CacheHint
	Problems Problems
	Raw      json.RawMessage
}

// DecodeSkillResult decodes a skills/get result.
func DecodeSkillResult(raw json.RawMessage) SkillResult {
	out := SkillResult{Raw: raw}
	var r struct {
		Skill json.RawMessage `json:"skill"`
	}
	if !out.Problems.decode("", raw, &r) {
		return out
	}
	if len(r.Skill) == 0 || string(r.Skill) == "null" {
		out.Problems = append(out.Problems, Problem{"/skill", "a skills/get result needs a skill object"})
	} else {
		out.Skill = decodeSkill(r.Skill, "/skill", &out.Problems)
	}
	var cps Problems
	out.Cache, cps = DecodeCacheHint(raw)
	out.Problems = append(out.Problems, cps...)
	return out
}

func decodeSkill(raw json.RawMessage, path string, ps *Problems) Skill {
	var r struct {
		URI         string          `json:"uri"`
		Frontmatter json.RawMessage `json:"frontmatter"`
		Resources   json.RawMessage `json:"resources"`
	}
	s := Skill{Raw: raw}
	if !ps.decode(path, raw, &r) {
		return s
	}
	s.URI, s.Frontmatter = r.URI, r.Frontmatter
	if s.URI == "" {
		*ps = append(*ps, Problem{path, "needs a uri"})
	}
	var fm struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if len(r.Frontmatter) == 0 {
		*ps = append(*ps, Problem{path + "/frontmatter", "is missing"})
	} else if ps.decode(path+"/frontmatter", r.Frontmatter, &fm) {
		s.Name, s.Description = fm.Name, fm.Description
		if fm.Name == "" {
			*ps = append(*ps, Problem{path + "/frontmatter/name", "is missing"})
		}
	}
	switch res := bytes.TrimSpace(r.Resources); {
	case string(res) == `"dynamic"`:
		s.Dynamic = true
	case len(res) == 0 || string(res) == "null":
		*ps = append(*ps, Problem{path + "/resources", `is missing (an array of files or "dynamic")`})
	default:
		if ps.decode(path+"/resources", res, &s.Files) {
			for i, f := range s.Files {
				p := path + "/resources/" + strconv.Itoa(i)
				if f.URI == "" {
					*ps = append(*ps, Problem{p, "needs a uri"})
				}
				if !validDigest(f.Digest) {
					*ps = append(*ps, Problem{p + "/digest", fmt.Sprintf("must be sha256: and 64 lowercase hex digits, not %q", f.Digest)})
				}
			}
		}
	}
	return s
}

func validDigest(d string) bool {
	h, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for _, c := range h {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Digest returns the manifest digest of content: "sha256:" and the
// lowercase hex SHA-256.
func Digest(content []byte) string {
	sum := sha256.Sum256(content)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ErrSkillVerify is matched (errors.Is) by every *VerifyError.
var ErrSkillVerify = errors.New("skill file failed verification")

// The checks a skill file can fail.
const (
	CheckListed      = "listed"      // the file is not in the held entry's manifest
	CheckSize        = "size"        // its byte length differs from the entry's size
	CheckDigest      = "digest"      // its SHA-256 differs from the entry's digest
	CheckFrontmatter = "frontmatter" // SKILL.md's frontmatter differs from the entry's
)

// VerifyError says which check a skill file failed.
type VerifyError struct {
	// Check is CheckListed, CheckSize, CheckDigest or CheckFrontmatter.
	Check string
	URI   string
	// Want is what the entry says, Got what the file has (for the
	// frontmatter: the fields that differ, one "name: file=… entry=…" each).
	Want, Got string
}

// Error implements error.
func (e *VerifyError) Error() string {
	switch e.Check {
	case CheckListed:
		return fmt.Sprintf("%s: %s: not in the skill's manifest", e.URI, ErrSkillVerify)
	case CheckFrontmatter:
		return fmt.Sprintf("%s: %s: frontmatter differs from the entry's: %s", e.URI, ErrSkillVerify, e.Got)
	}
	return fmt.Sprintf("%s: %s: %s %s, the entry says %s", e.URI, ErrSkillVerify, e.Check, e.Got, e.Want)
}

// Is makes errors.Is(err, ErrSkillVerify) true.
func (e *VerifyError) Is(target error) bool { return target == ErrSkillVerify }

// VerifySkillFile checks a file read for skill s against the entry: it
// must be listed, its size and its digest must match, and SKILL.md's
// frontmatter must equal the entry's field by field. For a dynamic skill
// only the frontmatter of SKILL.md can be checked. It returns a
// *VerifyError naming the first check that failed, or nil.
func VerifySkillFile(s Skill, uri string, content []byte) error {
	if !s.Dynamic {
		f, ok := s.File(uri)
		if !ok {
			return &VerifyError{Check: CheckListed, URI: uri}
		}
		if int64(len(content)) != f.Size {
			return &VerifyError{Check: CheckSize, URI: uri, Want: fmt.Sprintf("%d bytes", f.Size), Got: fmt.Sprintf("%d bytes", len(content))}
		}
		if d := Digest(content); d != f.Digest {
			return &VerifyError{Check: CheckDigest, URI: uri, Want: f.Digest, Got: d}
		}
	}
	if uri == s.URI {
		if diff := frontmatterDiff(content, s.Frontmatter); diff != "" {
			return &VerifyError{Check: CheckFrontmatter, URI: uri, Got: diff}
		}
	}
	return nil
}

// SplitSkillMD splits a SKILL.md into its YAML frontmatter (without the
// --- lines) and its body. ok is false when it does not begin with a
// ---‑delimited block.
func SplitSkillMD(md []byte) (front, body []byte, ok bool) {
	s := bytes.TrimPrefix(md, []byte("\ufeff"))
	first, rest, found := bytes.Cut(s, []byte("\n"))
	if !found || string(bytes.TrimRight(first, " \t\r")) != "---" {
		return nil, md, false
	}
	for off := 0; off <= len(rest); {
		line, after, more := bytes.Cut(rest[off:], []byte("\n"))
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			return rest[:off], after, true
		}
		if !more {
			break
		}
		off += len(line) + 1
	}
	return nil, md, false
}

// ParseFrontmatter returns SKILL.md's frontmatter as a JSON object.
func ParseFrontmatter(md []byte) (json.RawMessage, error) {
	front, _, ok := SplitSkillMD(md)
	if !ok {
		return nil, errors.New("SKILL.md does not begin with a --- delimited frontmatter block")
	}
	var v map[string]any
	if err := yaml.Unmarshal(front, &v); err != nil {
		return nil, fmt.Errorf("SKILL.md frontmatter: %w", err)
	}
	if v == nil {
		v = map[string]any{}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("SKILL.md frontmatter: %w", err)
	}
	return b, nil
}

// frontmatterDiff compares SKILL.md's frontmatter with the entry's and
// lists the fields that differ ("" when they are equal).
func frontmatterDiff(md []byte, entry json.RawMessage) string {
	fileFM, err := ParseFrontmatter(md)
	if err != nil {
		return err.Error()
	}
	var file, want map[string]any
	_ = json.Unmarshal(fileFM, &file)
	if err := json.Unmarshal(entry, &want); err != nil {
		return "the entry's frontmatter is not an object"
	}
	keys := map[string]bool{}
	for k := range file {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	var diffs []string
	for k := range keys {
		if !reflect.DeepEqual(file[k], want[k]) {
			f, _ := json.Marshal(file[k])
			w, _ := json.Marshal(want[k])
			diffs = append(diffs, fmt.Sprintf("%s: file=%s entry=%s", k, f, w))
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}
