package schemacheck

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// formatChecker returns the check for a format name, nil for an unknown
// format (which always passes).
func formatChecker(name string) func(string) bool {
	switch name {
	case "date-time":
		return isDateTime
	case "date":
		return isDate
	case "time":
		return isTime
	case "duration":
		return isDuration
	case "email":
		return func(s string) bool { return isEmail(s, false) }
	case "idn-email":
		return func(s string) bool { return isEmail(s, true) }
	case "hostname":
		return func(s string) bool { return isHostname(s, false) }
	case "idn-hostname":
		return func(s string) bool { return isHostname(s, true) }
	case "ipv4":
		return isIPv4
	case "ipv6":
		return isIPv6
	case "uri":
		return func(s string) bool { return isURI(s, true, false) }
	case "uri-reference":
		return func(s string) bool { return isURI(s, false, false) }
	case "iri":
		return func(s string) bool { return isURI(s, true, true) }
	case "iri-reference":
		return func(s string) bool { return isURI(s, false, true) }
	case "uri-template":
		return isURITemplate
	case "json-pointer":
		return isJSONPointer
	case "relative-json-pointer":
		return isRelJSONPointer
	case "regex":
		return func(s string) bool { _, err := regexp.Compile(s); return err == nil }
	case "uuid":
		return isUUID
	}
	return nil
}

func digits(s string, n int) (int, bool) {
	if len(s) != n {
		return 0, false
	}
	v := 0
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

// isDate checks an RFC 3339 full-date.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := digits(s[:4], 4)
	m, ok2 := digits(s[5:7], 2)
	d, ok3 := digits(s[8:], 2)
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

// isTime checks an RFC 3339 full-time (with a required offset). A leap
// second is accepted when the time in UTC is 23:59:60.
func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := digits(s[:2], 2)
	m, ok2 := digits(s[3:5], 2)
	sec, ok3 := digits(s[6:8], 2)
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if strings.HasPrefix(rest, ".") {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return false
		}
		rest = rest[i:]
	}
	var oh, om int
	sign := 0
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		var ok4, ok5 bool
		oh, ok4 = digits(rest[1:3], 2)
		om, ok5 = digits(rest[4:], 2)
		if !ok4 || !ok5 || oh > 23 || om > 59 {
			return false
		}
		sign = 1
		if rest[0] == '+' {
			sign = -1
		}
	default:
		return false
	}
	if sec == 60 {
		// Convert to UTC: local - offset.
		mins := h*60 + m + sign*(oh*60+om)
		mins = ((mins % 1440) + 1440) % 1440
		if mins != 23*60+59 {
			return false
		}
	}
	return true
}

// isDateTime checks an RFC 3339 date-time.
func isDateTime(s string) bool {
	if len(s) < 11 || (s[10] != 'T' && s[10] != 't') {
		return false
	}
	return isDate(s[:10]) && isTime(s[11:])
}

// isDuration checks an ISO 8601 duration as in RFC 3339 appendix A.
func isDuration(s string) bool {
	if len(s) < 2 || s[0] != 'P' {
		return false
	}
	s = s[1:]
	num := func() (string, bool) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(s) {
			return "", false
		}
		u := s[i : i+1]
		s = s[i+1:]
		return u, true
	}
	if strings.HasSuffix(s, "W") {
		u, ok := num()
		return ok && u == "W" && s == ""
	}
	date, timePart := s, ""
	if i := strings.IndexByte(s, 'T'); i >= 0 {
		date, timePart = s[:i], s[i+1:]
		if timePart == "" {
			return false
		}
	}
	// units reads part, whose units must come in order (each at most
	// once), and reports whether it was well formed and how many it had.
	units := func(part, order string) (int, bool) {
		s = part
		n, pos := 0, 0
		for s != "" {
			u, ok := num()
			if !ok {
				return n, false
			}
			j := strings.Index(order[pos:], u)
			if j < 0 {
				return n, false
			}
			pos += j + 1
			n++
		}
		return n, true
	}
	nd, ok := units(date, "YMD")
	if !ok {
		return false
	}
	nt, ok := units(timePart, "HMS")
	return ok && nd+nt > 0
}

// isEmail checks an RFC 5321 mailbox: a dot-atom or quoted local part and
// a hostname or address-literal domain. With idn, non-ASCII is allowed.
func isEmail(s string, idn bool) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return false
	}
	if strings.HasPrefix(local, `"`) {
		if len(local) < 2 || !strings.HasSuffix(local, `"`) {
			return false
		}
		// Inside quotes anything printable (and tab) goes, except a
		// backslash or a quote: quoted pairs are refused as a corner no
		// form needs.
		for _, r := range local[1 : len(local)-1] {
			if r == '\\' || r == '"' || (r < 32 && r != '\t') || r == 0x7f || (r >= 0x80 && !idn) {
				return false
			}
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return false
		}
		for _, r := range local {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			case strings.ContainsRune("!#$%&'*+-/=?^_`{|}~.", r):
			case r >= 0x80 && idn && unicode.IsPrint(r):
			default:
				return false
			}
		}
	}
	if strings.HasPrefix(domain, "[") {
		if !strings.HasSuffix(domain, "]") {
			return false
		}
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			return isIPv6(v6)
		}
		return isIPv4(lit)
	}
	return isHostname(domain, idn)
}

// isHostname checks an RFC 1123 host name; with idn, labels may hold
// Unicode letters, marks and digits.
func isHostname(s string, idn bool) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	if idn {
		s = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(s)
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		if !idn && len(label) > 63 || idn && utf8.RuneCountInString(label) > 63 {
			return false
		}
		if len(label) >= 4 && label[2:4] == "--" && !strings.HasPrefix(strings.ToLower(label), "xn--") {
			return false
		}
		for i, r := range label {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-':
			case idn && r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || (i > 0 && unicode.Is(unicode.M, r)) || r == '\u00b7' || r == '\u30fb' || r == '\u0375' || r == '\u05f3' || r == '\u05f4'):
			default:
				return false
			}
		}
	}
	return true
}

func isIPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

func isIPv6(s string) bool {
	if strings.ContainsRune(s, '%') {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6()
}

// isURI checks an RFC 3986 URI (or IRI, RFC 3987) or reference.
func isURI(s string, absolute, iri bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
		case c >= 0x80:
			if !iri {
				return false
			}
		case c <= ' ' || c == 0x7f || strings.IndexByte(`"<>\^`+"`{|}", c) >= 0:
			return false
		}
	}
	if iri && !utf8.ValidString(s) {
		return false
	}
	rest := s
	colon := strings.IndexByte(s, ':')
	if i := strings.IndexAny(s, "/?#"); colon >= 0 && (i < 0 || colon < i) {
		scheme := s[:colon]
		if !validScheme(scheme) {
			return false
		}
		rest = s[colon+1:]
	} else if absolute {
		return false
	}
	if strings.HasPrefix(rest, "//") {
		auth := rest[2:]
		if i := strings.IndexAny(auth, "/?#"); i >= 0 {
			auth = auth[:i]
		}
		if i := strings.LastIndexByte(auth, '@'); i >= 0 {
			auth = auth[i+1:]
		}
		if strings.HasPrefix(auth, "[") {
			end := strings.IndexByte(auth, ']')
			if end < 0 {
				return false
			}
			host := auth[1:end]
			if !strings.HasPrefix(host, "v") && !isIPv6(host) {
				return false
			}
			auth = auth[end+1:]
			if auth != "" && auth[0] != ':' {
				return false
			}
		} else if strings.ContainsRune(auth, '[') || strings.ContainsRune(auth, ']') {
			return false
		}
		if i := strings.LastIndexByte(auth, ':'); i >= 0 && !strings.HasPrefix(auth, "[") {
			for _, c := range auth[i+1:] {
				if c < '0' || c > '9' {
					return false
				}
			}
		}
	}
	if i := strings.IndexByte(s, '#'); i >= 0 && strings.IndexByte(s[i+1:], '#') >= 0 {
		return false
	}
	// Square brackets are only allowed in the host.
	path := rest
	if strings.HasPrefix(path, "//") {
		if i := strings.IndexAny(path[2:], "/?#"); i >= 0 {
			path = path[2+i:]
		} else {
			path = ""
		}
	}
	return !strings.ContainsAny(path, "[]")
}

func validScheme(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isURITemplate checks RFC 6570 syntax loosely: balanced, non-nested
// braces with a non-empty expression.
func isURITemplate(s string) bool {
	open := false
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			if open {
				return false
			}
			open, start = true, i+1
		case '}':
			if !open || i == start {
				return false
			}
			open = false
		}
	}
	return !open
}

func isJSONPointer(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 >= len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return false
		}
	}
	return true
}

func isRelJSONPointer(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || (i > 1 && s[0] == '0') {
		return false
	}
	if _, err := strconv.ParseUint(s[:i], 10, 64); err != nil {
		return false
	}
	rest := s[i:]
	if rest == "#" {
		return true
	}
	if strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "-") {
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j == 1 || (j > 2 && rest[1] == '0') {
			return false
		}
		rest = rest[j:]
		if rest == "#" {
			return true
		}
	}
	return isJSONPointer(rest)
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}
