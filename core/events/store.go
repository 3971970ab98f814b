package events

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/adrg/xdg"
	"github.com/golang/snappy"
)

// Retention: the newest events are held as they are (the hot tail); older
// ones are sealed in chunks of up to chunkEvents events, compressed with
// snappy (the payloads and titles in one block, the other fields as JSON
// in another), and when the memory bound is reached the oldest chunks are
// spilled to a file under the XDG cache folder and read back on demand.
const (
	// chunkEvents is how many events one sealed chunk holds at most.
	chunkEvents = 1024
	// hotEvents is how many of the newest events stay unsealed.
	hotEvents = 4096
	// eventOverhead is what an unsealed event costs beyond its payload
	// (the Event struct and what hangs off it), for the memory bound.
	eventOverhead = 320
	// chunkOverhead is what a sealed chunk costs beyond its blocks.
	chunkOverhead = 256
	// indexBytes is what a sealed event costs in the chunk's index (its
	// connection and categories, for Search's filters).
	indexBytes = 5
	// cacheBytes bounds the decoded chunks kept for Get and After.
	cacheBytes = 16 << 20
)

// category bits of a chunk's index.
const (
	bitLLM uint8 = 1 << iota
	bitTools
	bitRPC
	bitLogs
)

func catBits(e *Event) uint8 {
	var b uint8
	for _, c := range e.Categories() {
		b |= catBit(c)
	}
	return b
}

func catBit(c Category) uint8 {
	switch c {
	case CatLLM:
		return bitLLM
	case CatTools:
		return bitTools
	case CatRPC:
		return bitRPC
	case CatLogs:
		return bitLogs
	}
	return 0
}

// chunk is a sealed run of events with consecutive sequence numbers.
type chunk struct {
	first uint64
	n     int
	conn  []uint32 // per event: index into Log.connName
	cats  []uint8  // per event: category bits
	// mem holds the blocks while the chunk is in memory; nil once it is
	// spilled, then off, bodyLen and metaLen say where it is in the file.
	mem              atomic.Pointer[blocks]
	off              int64
	bodyLen, metaLen int
	memBytes         int64 // len(body)+len(meta) compressed
	hidden           int   // how many of its events ClearConn removed
}

// blocks are a chunk's two compressed blocks. The body holds, per event,
// its title, text, payload and extra search text (HTTP URL and error,
// run), each followed by a zero byte, behind a table of 4n+1 offsets;
// the meta block holds the events' other fields as a JSON array.
type blocks struct {
	body, meta []byte
}

func (c *chunk) last() uint64 { return c.first + uint64(c.n) - 1 }

// cost is what the chunk counts against the memory bound.
func (c *chunk) cost() int64 {
	n := int64(chunkOverhead + indexBytes*c.n)
	if c.mem.Load() != nil {
		n += c.memBytes
	}
	return n
}

// searchExtra is the search text of an event beyond title, text and
// payload.
func searchExtra(e *Event) string {
	var b strings.Builder
	if e.HTTP != nil {
		b.WriteString(e.HTTP.URL)
		b.WriteByte(0)
		b.WriteString(e.HTTP.Err)
	}
	b.WriteByte(0)
	b.WriteString(e.Run)
	return b.String()
}

// seal encodes evs into a chunk. conn maps a connection to its index.
func seal(evs []Event, conn func(string) uint32) (*chunk, error) {
	c := &chunk{first: evs[0].Seq, n: len(evs), conn: make([]uint32, len(evs)), cats: make([]uint8, len(evs))}
	size := 4 * (4*len(evs) + 1)
	for i := range evs {
		size += len(evs[i].Raw) + len(evs[i].Text) + 80
	}
	body := make([]byte, 4*(4*len(evs)+1), size)
	var meta []byte
	for i := range evs {
		e := &evs[i]
		c.conn[i] = conn(e.Conn)
		c.cats[i] = catBits(e)
		for f, s := range [4][]byte{[]byte(e.Title()), []byte(e.Text), e.Raw, []byte(searchExtra(e))} {
			binary.LittleEndian.PutUint32(body[4*(4*i+f):], uint32(len(body)))
			body = append(body, s...)
			body = append(body, 0)
		}
		var err error
		if meta, err = appendMeta(meta, e); err != nil {
			return nil, fmt.Errorf("seal event %d: %w", e.Seq, err)
		}
	}
	binary.LittleEndian.PutUint32(body[4*(4*len(evs)):], uint32(len(body)))
	mj := meta
	b := &blocks{body: compress(body), meta: compress(mj)}
	c.memBytes = int64(len(b.body) + len(b.meta))
	c.bodyLen, c.metaLen = len(b.body), len(b.meta)
	c.mem.Store(b)
	return c, nil
}

// compress returns src compressed, in a buffer of its own size.
func compress(src []byte) []byte {
	b := snappy.Encode(nil, src)
	if cap(b)-len(b) > len(b)/8 {
		b = append([]byte(nil), b...)
	}
	return b
}

// errGone says a spilled chunk can no longer be read (the log was closed
// or cleared).
var errGone = errors.New("events: spilled events are gone")

// load returns the chunk's compressed blocks (body, and meta when meta is
// true), from memory or the spill file.
func (c *chunk) load(sp *spill, meta bool) (*blocks, error) {
	if b := c.mem.Load(); b != nil {
		return b, nil
	}
	n := c.bodyLen
	if meta {
		n += c.metaLen
	}
	buf := make([]byte, n)
	if err := sp.readAt(buf, c.off); err != nil {
		return nil, err
	}
	b := &blocks{body: buf[:c.bodyLen]}
	if meta {
		b.meta = buf[c.bodyLen:]
	}
	return b, nil
}

// decodedBody is a chunk's body block decompressed.
type decodedBody struct {
	b   []byte
	off []uint32 // 4n+1 offsets into b
}

// decodeBody decompresses c's body block. When reuse is not nil its
// buffers are decoded into when large enough (a search reads every
// chunk in turn: a new buffer each, hundreds of megabytes in all, made
// the garbage collector's work most of a search's and its time vary
// fourfold); the result then shares them and lasts until the next use.
func decodeBody(c *chunk, bl *blocks, reuse *decodedBody) (decodedBody, error) {
	var dst []byte
	var off []uint32
	if reuse != nil {
		dst, off = reuse.b[:cap(reuse.b)], reuse.off
	}
	b, err := snappy.Decode(dst, bl.body)
	if err != nil {
		return decodedBody{}, fmt.Errorf("events %d–%d: %w", c.first, c.last(), err)
	}
	n := 4*c.n + 1
	if cap(off) < n {
		off = make([]uint32, n)
	}
	off = off[:n]
	for i := range off {
		off[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	d := decodedBody{b: b, off: off}
	if reuse != nil {
		*reuse = d
	}
	return d, nil
}

// field returns field f (0 title, 1 text, 2 payload, 3 extra) of event i.
func (d decodedBody) field(i, f int) []byte {
	return d.b[d.off[4*i+f] : d.off[4*i+f+1]-1]
}

// decodeChunk returns the chunk's events, as stored when it was sealed.
func decodeChunk(c *chunk, sp *spill) ([]Event, error) {
	bl, err := c.load(sp, true)
	if err != nil {
		return nil, err
	}
	d, err := decodeBody(c, bl, nil)
	if err != nil {
		return nil, err
	}
	mj, err := snappy.Decode(nil, bl.meta)
	if err != nil {
		return nil, fmt.Errorf("events %d–%d: %w", c.first, c.last(), err)
	}
	evs := make([]Event, c.n)
	for i := range evs {
		evs[i].Seq = c.first + uint64(i)
		if mj, err = readMeta(mj, &evs[i]); err != nil {
			return nil, fmt.Errorf("event %d: %w", evs[i].Seq, err)
		}
		if t := d.field(i, 1); len(t) > 0 {
			evs[i].Text = string(t)
		}
		if r := d.field(i, 2); len(r) > 0 {
			evs[i].Raw = r[:len(r):len(r)]
		}
	}
	return evs, nil
}

// The meta block: per event its fields but Seq, Raw and Text, in a
// compact binary form; the rare structured fields (HTTP, RPC, Tool,
// Lineage, Round) as JSON.
const (
	flagUnpaired = 1 << iota
	flagLate
	flagUnknown
	flagOutcome
	flagExtra
	flagToolError // the Outcome's ToolError
)

type metaExtra struct {
	HTTP    *HTTPInfo  `json:"h,omitempty"`
	RPC     *RPCInfo   `json:"r,omitempty"`
	Tool    *ToolInfo  `json:"t,omitempty"`
	Lineage *Lineage   `json:"l,omitempty"`
	Round   *RoundInfo `json:"o,omitempty"`
	Summary string     `json:"s,omitempty"`
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendMeta(b []byte, e *Event) ([]byte, error) {
	var flags byte
	if e.Unpaired {
		flags |= flagUnpaired
	}
	if e.Late {
		flags |= flagLate
	}
	if e.OutcomeUnknown {
		flags |= flagUnknown
	}
	if e.Outcome != nil {
		flags |= flagOutcome
		if e.Outcome.ToolError {
			flags |= flagToolError
		}
	}
	x := metaExtra{e.HTTP, e.RPC, e.Tool, e.Lineage, e.Round, e.Summary}
	if x != (metaExtra{}) {
		flags |= flagExtra
	}
	b = append(b, flags)
	b = binary.AppendVarint(b, e.Time.UnixNano())
	for _, s := range [...]string{e.Conn, string(e.Kind), string(e.Dir), string(e.Type), e.ID, e.Method, e.Run, e.ErrorClass} {
		b = appendString(b, s)
	}
	b = binary.AppendUvarint(b, uint64(e.Size))
	b = binary.AppendUvarint(b, e.Pair)
	if e.Outcome != nil {
		b = appendString(b, string(e.Outcome.State))
		b = binary.AppendVarint(b, int64(e.Outcome.Latency))
	}
	if flags&flagExtra != 0 {
		j, err := json.Marshal(&x)
		if err != nil {
			return nil, err
		}
		b = appendString(b, string(j))
	}
	return b, nil
}

var errMeta = errors.New("damaged event record")

// metaReader reads what appendMeta wrote.
type metaReader struct {
	b   []byte
	err error
}

func (r *metaReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errMeta
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *metaReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errMeta
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *metaReader) str() string {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errMeta
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func readMeta(b []byte, e *Event) ([]byte, error) {
	if len(b) == 0 {
		return nil, errMeta
	}
	flags := b[0]
	r := &metaReader{b: b[1:]}
	e.Time = time.Unix(0, r.varint())
	e.Conn, e.Kind, e.Dir, e.Type = r.str(), Kind(r.str()), Direction(r.str()), MessageType(r.str())
	e.ID, e.Method, e.Run, e.ErrorClass = r.str(), r.str(), r.str(), r.str()
	e.Size = int(r.uvarint())
	e.Pair = r.uvarint()
	e.Unpaired, e.Late, e.OutcomeUnknown = flags&flagUnpaired != 0, flags&flagLate != 0, flags&flagUnknown != 0
	if flags&flagOutcome != 0 {
		e.Outcome = &Outcome{State: OutcomeState(r.str()), Latency: time.Duration(r.varint()), ToolError: flags&flagToolError != 0}
	}
	if flags&flagExtra != 0 {
		var x metaExtra
		if j := r.str(); r.err == nil {
			if err := json.Unmarshal([]byte(j), &x); err != nil {
				return nil, err
			}
		}
		e.HTTP, e.RPC, e.Tool, e.Lineage, e.Round, e.Summary = x.HTTP, x.RPC, x.Tool, x.Lineage, x.Round, x.Summary
	}
	return r.b, r.err
}

// chunkCache keeps the last decoded chunks, bounded by cacheBytes.
type chunkCache struct {
	mu    sync.Mutex
	items []cached // most recent last
	bytes int64
}

type cached struct {
	c    *chunk
	evs  []Event
	size int64
}

func (cc *chunkCache) get(c *chunk, sp *spill) ([]Event, error) {
	cc.mu.Lock()
	for i, it := range cc.items {
		if it.c == c {
			cc.items = append(append(cc.items[:i:i], cc.items[i+1:]...), it)
			cc.mu.Unlock()
			return it.evs, nil
		}
	}
	cc.mu.Unlock()
	evs, err := decodeChunk(c, sp)
	if err != nil {
		return nil, err
	}
	size := int64(c.n * eventOverhead)
	for i := range evs {
		size += int64(len(evs[i].Raw) + len(evs[i].Text))
	}
	cc.mu.Lock()
	cc.items = append(cc.items, cached{c, evs, size})
	cc.bytes += size
	for len(cc.items) > 1 && cc.bytes > cacheBytes {
		cc.bytes -= cc.items[0].size
		cc.items[0] = cached{} // the array behind the slice keeps what it holds
		cc.items = cc.items[1:]
	}
	cc.mu.Unlock()
	return evs, nil
}

func (cc *chunkCache) reset() {
	cc.mu.Lock()
	cc.items, cc.bytes = nil, 0
	cc.mu.Unlock()
}

// spill is the file that chunks beyond the memory bound are written to.
// On Unix it is removed from its folder as soon as it is open, so that it
// disappears with the process however that ends; elsewhere Close removes
// it, and the next process removes those of processes that are gone.
type spill struct {
	dir string

	mu     sync.Mutex
	f      *os.File
	path   string // "" once removed from the folder
	size   int64
	err    error // the first failure: no more spilling
	closed bool
}

var spillSeq atomic.Uint64

// spillDir is the default folder of spill files.
func spillDir() string { return filepath.Join(xdg.CacheHome, "spyglass", "spill") }

// write appends b to the file and returns where it starts.
func (s *spill) write(b ...[]byte) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return 0, s.err
	}
	if s.closed {
		return 0, errGone
	}
	if s.f == nil {
		if err := s.open(); err != nil {
			s.err = err
			return 0, err
		}
	}
	off := s.size
	for _, p := range b {
		if _, err := s.f.WriteAt(p, s.size); err != nil {
			s.err = fmt.Errorf("write %s: %w", s.dir, err)
			return 0, s.err
		}
		s.size += int64(len(p))
	}
	return off, nil
}

func (s *spill) open() error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("spill folder: %w", err)
	}
	removeStale(s.dir)
	name := fmt.Sprintf("spill-%d-%d", os.Getpid(), spillSeq.Add(1))
	p := filepath.Join(s.dir, name)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("spill file: %w", err)
	}
	s.f, s.path = f, p
	if runtime.GOOS != "windows" && os.Remove(p) == nil {
		s.path = ""
	}
	return nil
}

func (s *spill) readAt(b []byte, off int64) error {
	s.mu.Lock()
	f := s.f
	s.mu.Unlock()
	if f == nil {
		return errGone
	}
	if _, err := f.ReadAt(b, off); err != nil {
		return fmt.Errorf("read spilled events: %w", errors.Join(errGone, err))
	}
	return nil
}

// reset forgets what was written (Clear); close removes the file.
func (s *spill) reset(closing bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = s.closed || closing
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	if s.path != "" {
		if rerr := os.Remove(s.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
	}
	s.f, s.path, s.size = nil, "", 0
	return err
}

func (s *spill) bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size
}

// removeStale removes the spill files of processes that no longer run.
func removeStale(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "spill-")
		if !ok {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || alive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

// alive reports whether a process with this pid runs.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	if runtime.GOOS == "windows" {
		return true
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EPERM)
}
