package events

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for Options.
const (
	DefaultCapacity      = 5_000_000
	DefaultMaxBytes      = 256 << 20
	DefaultBatchInterval = 50 * time.Millisecond
	// MaxBatch is the most events one Batch carries; a listener that is
	// further behind gets the rest in the following batches, at once.
	MaxBatch = 10000
)

// ErrDropped says that part of the history a reader asked for has been
// evicted from the ring. After wraps it in a *DroppedError that carries
// how many events were lost.
var ErrDropped = errors.New("events dropped")

// DroppedError reports evicted history: the events with sequence numbers
// From through To (Count of them) are no longer in the log.
type DroppedError struct {
	From, To uint64
	Count    uint64
}

// Error implements error.
func (e *DroppedError) Error() string {
	return fmt.Sprintf("events: %d events dropped (seq %d–%d)", e.Count, e.From, e.To)
}

// Unwrap makes errors.Is(err, ErrDropped) true.
func (e *DroppedError) Unwrap() error { return ErrDropped }

// Options configures a Log. The zero value (or nil) gives the defaults.
type Options struct {
	// Capacity is how many events the log keeps in all, in memory and
	// spilled to disk; beyond it the oldest are dropped and counted (a
	// sealed chunk of up to 1024 events at a time once there are more
	// than 4096). Default DefaultCapacity.
	Capacity int
	// MaxBytes bounds the memory the log holds: the newest events as
	// they are (their Raw and Text and about 320 bytes each), older ones
	// sealed and compressed, and an index of 5 bytes per event. Beyond it
	// the oldest sealed events are spilled to a file in SpillDir and read
	// back when asked for; when that is not possible (NoSpill, or the
	// folder cannot be written) the oldest events are dropped and
	// counted instead, with one KindWarning event saying why. The newest
	// event is always kept, even when it alone is larger. Default
	// DefaultMaxBytes.
	MaxBytes int64
	// SpillDir is where events beyond MaxBytes are written; default
	// $XDG_CACHE_HOME/spyglass/spill. The file (0600, in a 0700 folder)
	// is removed from the folder as soon as it is open on Unix, and by
	// Close elsewhere; files of processes that are gone are removed when
	// the next one opens its own.
	SpillDir string
	// NoSpill drops the oldest events beyond MaxBytes instead of
	// spilling them.
	NoSpill bool
	// Redact, if set, is applied to every event on Append before it is
	// stored (before Seq is assigned): mask secrets here, so that no
	// reader or trace ever sees them. It must not keep the pointer. Type,
	// ID and Method are already set when it runs.
	Redact func(*Event)
	// BatchInterval is roughly how often listeners get batches. Default
	// DefaultBatchInterval.
	BatchInterval time.Duration
	// Now returns the current time; default time.Now. Tests set it to
	// get exact latencies.
	Now func() time.Time
}

// Stats are counters since the log was created or last cleared.
type Stats struct {
	// Events is how many events were appended.
	Events uint64
	// Requests is how many JSON-RPC requests (both directions) were appended.
	Requests uint64
	// ToolCalls is how many tools/call requests were appended.
	ToolCalls uint64
	// Errors counts JSON-RPC error responses, tool results with isError,
	// KindError events and failed HTTP exchanges.
	Errors uint64
	// Dropped is how many events were evicted from the ring.
	Dropped uint64
}

// Retention says how the log holds its events now.
type Retention struct {
	// Events is how many events the log holds (Len).
	Events int
	// Memory is what the log counts against Options.MaxBytes.
	Memory int64
	// Sealed is how many of the events are sealed (compressed), Spilled
	// how many of those are in the spill file, SpillBytes its size.
	Sealed, Spilled int
	SpillBytes      int64
	// SpillErr is why events could not be spilled (then the oldest are
	// dropped), nil when they could or never had to be.
	SpillErr error
}

// Batch is what a listener receives.
type Batch struct {
	// Events are new events, in sequence order.
	Events []Event
	// Updated are copies of request events delivered in an earlier batch
	// whose Outcome or Pair has changed since.
	Updated []Event
	// Dropped is how many events this listener missed because they were
	// evicted before it read them; catch up with After if needed.
	Dropped uint64
	// Cleared says Clear was called since the previous batch.
	Cleared bool
}

func (b *Batch) empty() bool {
	return len(b.Events) == 0 && len(b.Updated) == 0 && b.Dropped == 0 && !b.Cleared
}

type pairKey struct {
	conn string
	dir  Direction // direction of the request
	id   string
}

type pendingReq struct {
	seq    uint64
	method string
	time   time.Time
	state  OutcomeState
}

// waitingOutcome is shared by every new request: outcomes are never
// modified in place.
var waitingOutcome = &Outcome{State: Waiting}

var eventPool = sync.Pool{New: func() any { return new(Event) }}

// cost is what an unsealed event counts against Options.MaxBytes.
func cost(e *Event) int64 { return int64(eventOverhead + len(e.Raw) + len(e.Text)) }

// patch is a change to a sealed request: its pair and outcome (0 and nil
// where they did not change).
type patch struct {
	pair    uint64
	outcome *Outcome
}

// Log is the append-only, bounded record of events with sequence numbers
// that pairs requests with responses and hands listeners batches. The
// newest events are held as they are; older ones are sealed into
// compressed chunks and, beyond Options.MaxBytes, spilled to a file (see
// store.go). It is safe for concurrent use. Create it with New.
type Log struct {
	capacity uint64
	maxBytes int64
	noSpill  bool
	redact   func(*Event)
	interval time.Duration
	now      func() time.Time
	sp       *spill
	cache    chunkCache

	mu       sync.Mutex
	hot      []Event // the newest events; hot[0] has Seq hotFirst
	hotFirst uint64
	hotBytes int64
	chunks   []*chunk // sealed, in order, before hotFirst
	spilled  int      // chunks[:spilled] are in the spill file
	chunkMem int64    // Σ chunk.cost()
	patches  map[uint64]patch
	connIdx  map[string]uint32
	connName []string
	warned   bool   // the spill failure was reported
	warn     string // a warning to append once the lock is released
	warnConn string
	first    uint64            // oldest retained seq; first == last+1 when empty
	last     uint64            // last assigned seq
	cleared  uint64            // highest seq removed by Clear
	connClr  map[string]uint64 // per connection, highest seq removed by ClearConn
	hidden   uint64            // events in first..last removed by ClearConn
	clearGen uint64
	pending  map[pairKey]pendingReq
	upd      []uint64 // journal of request seqs whose outcome/pair changed
	updBase  uint64   // journal position of upd[0]
	subList  []*subscriber

	subs atomic.Pointer[[]*subscriber]

	nEvents, nRequests, nToolCalls, nErrors, nDropped atomic.Uint64
}

// New returns an empty log.
func New(opts *Options) *Log {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Capacity <= 0 {
		o.Capacity = DefaultCapacity
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.BatchInterval <= 0 {
		o.BatchInterval = DefaultBatchInterval
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SpillDir == "" {
		o.SpillDir = spillDir()
	}
	return &Log{
		capacity: uint64(o.Capacity),
		maxBytes: o.MaxBytes,
		noSpill:  o.NoSpill,
		redact:   o.Redact,
		interval: o.BatchInterval,
		now:      o.Now,
		sp:       &spill{dir: o.SpillDir},
		hotFirst: 1,
		first:    1,
		pending:  map[pairKey]pendingReq{},
		patches:  map[uint64]patch{},
		connIdx:  map[string]uint32{},
	}
}

// Close removes the spill file. The log stays usable, but events spilled
// before are gone (Get reports them missing) and no more are spilled.
func (l *Log) Close() error {
	l.cache.reset()
	if err := l.sp.reset(true); err != nil {
		return fmt.Errorf("events: close: %w", err)
	}
	return nil
}

// SetMaxBytes changes the memory bound (Options.MaxBytes) from now on; n
// <= 0 restores DefaultMaxBytes. Events beyond a lower bound are sealed,
// spilled or dropped as the next events are appended.
func (l *Log) SetMaxBytes(n int64) {
	if n <= 0 {
		n = DefaultMaxBytes
	}
	l.mu.Lock()
	l.maxBytes = n
	l.mu.Unlock()
}

// Capacity returns how many events the log keeps at most (in memory and
// spilled).
func (l *Log) Capacity() int { return int(l.capacity) }

func opposite(d Direction) Direction {
	switch d {
	case DirIn:
		return DirOut
	case DirOut:
		return DirIn
	}
	return DirLocal
}

// Append records e and returns its sequence number. It sets Seq, Time
// (when zero) and Size (len(Raw), when zero). For a KindMessage the
// caller sets Type, ID (JSON text) and Method; when Type is empty they are
// decoded from Raw. Append pairs requests with responses: a DirIn
// response answers the DirOut request with the same Conn and ID, and a
// DirOut response answers a DirIn request. A response whose id matches no
// open request is kept and marked Unpaired. A notifications/cancelled
// message marks the request it names Cancelled.
//
// Append keeps e.Raw without copying it: pass bytes you will not modify.
// It never blocks on a listener.
func (l *Log) Append(e Event) uint64 {
	if e.Time.IsZero() {
		e.Time = l.now()
	}
	if e.Size == 0 {
		e.Size = len(e.Raw)
	}
	if e.Kind == KindMessage && e.Type == "" && len(e.Raw) > 0 {
		if typ, id, method, ok := decodeEnvelope(e.Raw); ok {
			e.Type = typ
			if e.Method == "" {
				e.Method = method
			}
			if e.ID == "" {
				e.ID = id
			}
		}
	}
	e.ID = NormalizeID(e.ID)
	if l.redact != nil {
		// Through a pooled pointer, so that e itself stays on the stack.
		p := eventPool.Get().(*Event)
		*p = e
		l.redact(p)
		e = *p
		*p = Event{}
		eventPool.Put(p)
	}
	e.Pair, e.Outcome, e.Unpaired, e.Late = 0, nil, false, false
	// A cancellation names the request in its params.
	var cancelID string
	if e.Kind == KindMessage && e.Type == MsgNotification && e.Method == "notifications/cancelled" {
		cancelID = cancelledID(e.Raw)
	}

	l.mu.Lock()
	l.last++
	seq := l.last
	e.Seq = seq
	journal := len(l.subList) > 0
	updated := false
	if e.Kind == KindMessage && e.ID != "" && (e.Dir == DirIn || e.Dir == DirOut) {
		switch e.Type {
		case MsgRequest:
			e.Outcome = waitingOutcome
			l.pending[pairKey{e.Conn, e.Dir, e.ID}] = pendingReq{seq: seq, method: e.Method, time: e.Time, state: Waiting}
		case MsgResult, MsgError:
			updated = l.pairLocked(&e, journal)
		}
	}
	l.storeLocked(e)
	if cancelID != "" {
		updated = l.markLocked(pairKey{e.Conn, e.Dir, cancelID}, Cancelled, e.Time, journal) || updated
	}
	if updated && journal {
		l.trimJournalLocked()
	}
	warn, warnConn := l.warn, l.warnConn
	l.warn = ""
	l.mu.Unlock()
	if warn != "" {
		defer l.Append(Event{Conn: warnConn, Kind: KindWarning, Text: warn})
	}

	var d Stats
	d.Add(&e)
	l.nEvents.Add(d.Events)
	l.nRequests.Add(d.Requests)
	l.nToolCalls.Add(d.ToolCalls)
	l.nErrors.Add(d.Errors)
	l.wake()
	return seq
}

// Add counts e in s the way the log's own counters do (every field but
// Dropped). The inspector uses it for the counters of one connection.
func (s *Stats) Add(e *Event) {
	s.Events++
	switch {
	case e.Kind == KindMessage:
		switch e.Type {
		case MsgRequest:
			s.Requests++
			if e.Method == "tools/call" {
				s.ToolCalls++
			}
		case MsgError:
			s.Errors++
		case MsgResult:
			if e.Method == "tools/call" && toolError(e.Raw) {
				s.Errors++
			}
		}
	case e.Kind == KindError, e.httpFailed():
		s.Errors++
	}
}

// storeLocked appends e, evicting the oldest events beyond Capacity,
// sealing older events into chunks, and spilling or dropping the oldest
// beyond MaxBytes.
func (l *Log) storeLocked(e Event) {
	if e.Seq-l.first >= l.capacity {
		l.dropOldestLocked()
	}
	if len(l.hot) == 0 {
		l.hotFirst = e.Seq
	}
	l.hot = append(l.hot, e)
	l.hotBytes += cost(&e)
	if len(l.hot) >= hotEvents+chunkEvents {
		l.sealLocked(chunkEvents)
	}
	for l.hotBytes+l.chunkMem > l.maxBytes {
		switch {
		case len(l.hot) > 1 && l.hotBytes > l.maxBytes/4:
			l.sealLocked(min(chunkEvents, len(l.hot)-1))
		case l.spilled < len(l.chunks) && l.spillLocked(e.Conn):
		case len(l.chunks) > 0 || len(l.hot) > 1:
			l.dropOldestLocked()
		default:
			return
		}
	}
}

// sealLocked seals the oldest k unsealed events into a chunk.
func (l *Log) sealLocked(k int) {
	c, err := seal(l.hot[:k], l.connLocked)
	var b int64
	for i := range l.hot[:k] {
		b += cost(&l.hot[i])
	}
	if err != nil { // cannot happen with events from Append; keep them
		return
	}
	if len(l.connClr) > 0 {
		c.hidden = l.chunkHiddenLocked(c)
	}
	l.chunks = append(l.chunks, c)
	l.chunkMem += c.cost()
	n := copy(l.hot, l.hot[k:])
	clear(l.hot[n:])
	l.hot = l.hot[:n]
	l.hotFirst += uint64(k)
	l.hotBytes -= b
}

// connLocked returns the index of a connection name.
func (l *Log) connLocked(conn string) uint32 {
	i, ok := l.connIdx[conn]
	if !ok {
		i = uint32(len(l.connName))
		l.connIdx[conn] = i
		l.connName = append(l.connName, conn)
	}
	return i
}

// spillLocked writes the oldest chunk still in memory to the spill file.
// When it cannot, it arranges one warning (on conn) and reports false.
func (l *Log) spillLocked(conn string) bool {
	if l.noSpill {
		return false
	}
	c := l.chunks[l.spilled]
	b := c.mem.Load()
	off, err := l.sp.write(b.body, b.meta)
	if err != nil {
		if !l.warned && !errors.Is(err, errGone) {
			l.warned = true
			l.warn = fmt.Sprintf("Old events cannot be written to %s (%v): the oldest events are dropped to stay within the event log's memory bound.", l.sp.dir, err)
			l.warnConn = conn
		}
		return false
	}
	before := c.cost()
	c.off = off
	c.mem.Store(nil)
	l.chunkMem += c.cost() - before
	l.spilled++
	return true
}

// dropOldestLocked drops the oldest sealed chunk, or the oldest event
// when nothing is sealed, and counts what it dropped.
func (l *Log) dropOldestLocked() {
	if l.gapLocked() {
		return
	}
	if len(l.chunks) == 0 {
		old := &l.hot[0]
		if l.hiddenLocked(old.Conn, old.Seq) {
			l.hidden-- // removed by ClearConn, not dropped
		} else {
			l.nDropped.Add(1)
		}
		l.forgetLocked(old.Seq, old.Seq)
		l.hotBytes -= cost(old)
		*old = Event{}
		l.hot = l.hot[1:]
		l.hotFirst++
		l.first++
		return
	}
	c := l.chunks[0]
	l.chunks[0] = nil
	l.chunks = l.chunks[1:]
	if l.spilled > 0 {
		l.spilled--
	}
	l.chunkMem -= c.cost()
	l.forgetLocked(c.first, c.last())
	l.first = c.last() + 1
	n := c.n
	l.hidden -= uint64(c.hidden)
	l.nDropped.Add(uint64(n - c.hidden))
}

// forgetLocked forgets what the log knows of the dropped events from–to:
// finished requests stop being pairable (waiting ones stay, unless there
// are more of them than the log holds), and their patches go.
func (l *Log) forgetLocked(from, to uint64) {
	for k, p := range l.pending {
		if p.seq >= from && p.seq <= to && (p.state != Waiting || len(l.pending) > int(l.capacity)) {
			delete(l.pending, k)
		}
	}
	if len(l.patches) > 0 {
		for s := range l.patches {
			if s >= from && s <= to {
				delete(l.patches, s)
			}
		}
	}
}

func (l *Log) retained(seq uint64) bool { return seq >= l.first && seq <= l.last && seq != 0 }

// setLocked changes the pair and outcome of the retained request seq
// (pair 0 and out nil leave them).
func (l *Log) setLocked(seq, pair uint64, out *Outcome) {
	if seq >= l.hotFirst {
		e := &l.hot[seq-l.hotFirst]
		if pair != 0 {
			e.Pair = pair
		}
		if out != nil {
			e.Outcome = out
		}
		return
	}
	p := l.patches[seq] // only what changed: the rest stays as sealed
	if pair != 0 {
		p.pair = pair
	}
	if out != nil {
		p.outcome = out
	}
	l.patches[seq] = p
}

// chunkLocked returns the sealed chunk holding seq.
func (l *Log) chunkLocked(seq uint64) *chunk {
	i := sort.Search(len(l.chunks), func(i int) bool { return l.chunks[i].last() >= seq })
	if i == len(l.chunks) || l.chunks[i].first > seq {
		return nil
	}
	return l.chunks[i]
}

// getLocked returns the retained event seq, decoding its chunk (a rare
// path: readers use read, which decodes without the lock).
func (l *Log) getLocked(seq uint64) (Event, bool) {
	if !l.retained(seq) {
		return Event{}, false
	}
	if seq >= l.hotFirst {
		e := l.hot[seq-l.hotFirst]
		return e, !l.hiddenLocked(e.Conn, seq)
	}
	c := l.chunkLocked(seq)
	if c == nil {
		return Event{}, false
	}
	evs, err := l.cache.get(c, l.sp)
	if err != nil {
		return Event{}, false
	}
	e := evs[seq-c.first]
	if l.hiddenLocked(e.Conn, seq) {
		return Event{}, false
	}
	l.patchLocked(&e)
	return e, true
}

func (l *Log) patchLocked(e *Event) {
	if p, ok := l.patches[e.Seq]; ok {
		if p.pair != 0 {
			e.Pair = p.pair
		}
		if p.outcome != nil {
			e.Outcome = p.outcome
		}
	}
}

// read returns the retained events from–to in order, decoding sealed
// chunks without holding the lock. Events that cannot be read back (the
// spill file was closed) are left out.
func (l *Log) read(from, to uint64) []Event {
	type part struct {
		c      *chunk
		lo, hi uint64
	}
	l.mu.Lock()
	from = max(from, l.first)
	to = min(to, l.last)
	if from > to || from == 0 {
		l.mu.Unlock()
		return nil
	}
	var parts []part
	if from < l.hotFirst {
		i := sort.Search(len(l.chunks), func(i int) bool { return l.chunks[i].last() >= from })
		for ; i < len(l.chunks) && l.chunks[i].first <= to; i++ {
			c := l.chunks[i]
			parts = append(parts, part{c, max(from, c.first), min(to, c.last())})
		}
	}
	out := make([]Event, 0, to-from+1)
	var hot []Event
	if to >= l.hotFirst {
		hot = l.hot[max(from, l.hotFirst)-l.hotFirst : to-l.hotFirst+1]
	}
	if len(parts) == 0 {
		out = l.visibleLocked(append(out, hot...))
		l.mu.Unlock()
		return out
	}
	hot = append([]Event(nil), hot...)
	l.mu.Unlock()
	for _, p := range parts {
		evs, err := l.cache.get(p.c, l.sp)
		if err != nil {
			continue
		}
		out = append(out, evs[p.lo-p.c.first:p.hi-p.c.first+1]...)
	}
	l.mu.Lock()
	if len(l.patches) > 0 {
		for i := range out {
			l.patchLocked(&out[i])
		}
	}
	out, hot = l.visibleLocked(out), l.visibleLocked(hot)
	l.mu.Unlock()
	return append(out, hot...)
}

// pairLocked pairs the response e with its request. It reports whether
// the stored request changed.
func (l *Log) pairLocked(e *Event, journal bool) bool {
	k := pairKey{e.Conn, opposite(e.Dir), e.ID}
	p, ok := l.pending[k]
	if !ok {
		e.Unpaired = true
		return false
	}
	delete(l.pending, k)
	e.Pair = p.seq
	if e.Method == "" {
		e.Method = p.method
	}
	lat := e.Time.Sub(p.time)
	var out *Outcome
	switch p.state {
	case Waiting:
		st := OK
		if e.Type == MsgError {
			st = Failed
		}
		out = &Outcome{State: st, Latency: lat, ToolError: e.ToolError()}
	case Cancelled:
		e.Late = true
		out = &Outcome{State: CancelledLate, Latency: lat}
	default: // timed out (or given up): keep the badge, mark the reply late
		e.Late = true
	}
	if !l.retained(p.seq) || l.hiddenLocked(k.conn, p.seq) {
		return false
	}
	l.setLocked(p.seq, e.Seq, out)
	if journal {
		l.upd = append(l.upd, p.seq)
	}
	return true
}

// markLocked moves a waiting request to state st.
func (l *Log) markLocked(k pairKey, st OutcomeState, at time.Time, journal bool) bool {
	p, ok := l.pending[k]
	if !ok || p.state != Waiting {
		return false
	}
	p.state = st
	l.pending[k] = p
	if !l.retained(p.seq) || l.hiddenLocked(k.conn, p.seq) {
		return false
	}
	l.setLocked(p.seq, 0, &Outcome{State: st, Latency: at.Sub(p.time)})
	if journal {
		l.upd = append(l.upd, p.seq)
	}
	return true
}

func (l *Log) mark(conn string, dir Direction, id string, st OutcomeState) {
	at := l.now()
	l.mu.Lock()
	ch := l.markLocked(pairKey{conn, dir, NormalizeID(id)}, st, at, len(l.subList) > 0)
	if ch {
		l.trimJournalLocked()
	}
	l.mu.Unlock()
	if ch {
		l.wake()
	}
}

// MarkCancelled records that the request with this id, sent in direction
// dir on conn, was cancelled (by us when dir is DirOut, by the server when
// DirIn). A waiting request becomes Cancelled; a reply that still arrives
// turns it into CancelledLate. Requests already answered or timed out are
// left alone.
func (l *Log) MarkCancelled(conn string, dir Direction, id string) {
	l.mark(conn, dir, id, Cancelled)
}

// MarkTimedOut records that the client gave up waiting for the request:
// a waiting request becomes TimedOut with the time elapsed since it was
// sent. A reply that still arrives is paired and marked Late.
func (l *Log) MarkTimedOut(conn string, dir Direction, id string) {
	l.mark(conn, dir, id, TimedOut)
}

// MarkNoResponse records that the request will never be answered although
// its connection stays open (for example, it could not be sent): a
// waiting request becomes NoResponse.
func (l *Log) MarkNoResponse(conn string, dir Direction, id string) {
	l.mark(conn, dir, id, NoResponse)
}

// CloseConn records that conn closed: every request on it still waiting
// becomes NoResponse, and no later message pairs with its requests.
func (l *Log) CloseConn(conn string) {
	at := l.now()
	ch := false
	l.mu.Lock()
	journal := len(l.subList) > 0
	for k, p := range l.pending {
		if k.conn != conn {
			continue
		}
		delete(l.pending, k)
		if p.state != Waiting || !l.retained(p.seq) || l.hiddenLocked(conn, p.seq) {
			continue
		}
		l.setLocked(p.seq, 0, &Outcome{State: NoResponse, Latency: at.Sub(p.time)})
		if journal {
			l.upd = append(l.upd, p.seq)
		}
		ch = true
	}
	if ch {
		l.trimJournalLocked()
	}
	l.mu.Unlock()
	if ch {
		l.wake()
	}
}

// Get returns the event with sequence number seq, if it is still held.
func (l *Log) Get(seq uint64) (Event, bool) {
	l.mu.Lock()
	if !l.retained(seq) {
		l.mu.Unlock()
		return Event{}, false
	}
	if seq >= l.hotFirst {
		e := l.hot[seq-l.hotFirst]
		ok := !l.hiddenLocked(e.Conn, seq)
		l.mu.Unlock()
		return e, ok
	}
	l.mu.Unlock()
	evs := l.read(seq, seq)
	if len(evs) != 1 || evs[0].Seq != seq {
		return Event{}, false
	}
	return evs[0], true
}

// LastSeq returns the sequence number of the last event appended (0 if none).
func (l *Log) LastSeq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
}

// Len returns how many events the log holds now.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int(l.last + 1 - l.first - l.hidden)
}

// missingLocked returns how many events after seq (exclusive) and before
// l.first were evicted; events removed by Clear do not count.
func (l *Log) missingLocked(seq uint64) (from, count uint64) {
	from = seq + 1
	if from <= l.cleared {
		from = l.cleared + 1
	}
	if from >= l.first {
		return from, 0
	}
	return from, l.first - from
}

// After returns up to max events with Seq > seq, in order (max <= 0: no
// limit). When some of them have been evicted it returns the events still
// held together with a *DroppedError (errors.Is(err, ErrDropped)) telling
// how many were lost. Events removed by Clear are not reported as dropped.
func (l *Log) After(seq uint64, max int) ([]Event, error) {
	l.mu.Lock()
	var err error
	from, n := l.missingLocked(seq)
	if n > 0 {
		err = &DroppedError{From: from, To: l.first - 1, Count: n}
	}
	if from < l.first {
		from = l.first
	}
	if from > l.last {
		l.mu.Unlock()
		return nil, err
	}
	last, to := l.last, l.last
	if max > 0 && to-from+1 > uint64(max) {
		to = from + uint64(max) - 1
	}
	l.mu.Unlock()
	out := l.read(from, to)
	// Events removed by ClearConn leave holes: read on for a full page.
	for max > 0 && len(out) < max && to < last {
		from, to = to+1, min(last, to+uint64(max-len(out)))
		out = append(out, l.read(from, to)...)
	}
	return out, err
}

// Events returns a copy of every event the log holds, in order.
func (l *Log) Events() []Event {
	ev, _ := l.After(0, 0)
	return ev
}

// Clear removes every event (the inspector's Clear) and resets Stats.
// Sequence numbers continue; listeners get a batch with Cleared set.
// Requests still waiting stay pairable, so their answers keep their titles.
func (l *Log) Clear() {
	l.mu.Lock()
	l.cleared = l.last
	l.first = l.last + 1
	l.connClr, l.hidden = nil, 0
	l.hotFirst = l.first
	l.hot, l.hotBytes = nil, 0
	l.chunks, l.spilled, l.chunkMem = nil, 0, 0
	clear(l.patches)
	l.cache.reset()
	l.sp.reset(false)
	l.clearGen++
	for k, p := range l.pending {
		if p.state != Waiting {
			delete(l.pending, k)
		}
	}
	l.upd, l.updBase = nil, l.updBase+uint64(len(l.upd))
	l.nEvents.Store(0)
	l.nRequests.Store(0)
	l.nToolCalls.Store(0)
	l.nErrors.Store(0)
	l.nDropped.Store(0)
	l.mu.Unlock()
	l.wake()
}

// Attempts returns the KindTool events of a retry lineage that the log
// holds, in order: every attempt with its outcome, duration and request
// id (Tool.RequestID, Tool.RequestSeq link it to the RPC log). It works
// on a log filled from a trace as well.
func (l *Log) Attempts(lineageID string) []Event {
	var out []Event
	for _, e := range l.Events() {
		if e.Kind == KindTool && e.Lineage != nil && e.Lineage.ID == lineageID {
			out = append(out, e)
		}
	}
	return out
}

// AttemptsOf returns the attempts of the lineage that the tool call
// attempt callID (an event's RPC.CallID: a raw tools/call, its response,
// or the attempt's KindTool event) belongs to, once that attempt has
// ended; nil before.
func (l *Log) AttemptsOf(callID string) []Event {
	evs := l.Events()
	for i := len(evs) - 1; i >= 0; i-- {
		e := &evs[i]
		if e.Kind == KindTool && e.RPC != nil && e.RPC.CallID == callID && e.Lineage != nil {
			id := e.Lineage.ID
			var out []Event
			for _, x := range evs {
				if x.Kind == KindTool && x.Lineage != nil && x.Lineage.ID == id {
					out = append(out, x)
				}
			}
			return out
		}
	}
	return nil
}

// Retention says how the log holds its events now.
func (l *Log) Retention() Retention {
	l.mu.Lock()
	r := Retention{Events: int(l.last + 1 - l.first - l.hidden), Memory: l.hotBytes + l.chunkMem}
	for i, c := range l.chunks {
		n := c.n - c.hidden
		r.Sealed += n
		if i < l.spilled {
			r.Spilled += n
		}
	}
	l.mu.Unlock()
	r.SpillBytes = l.sp.bytes()
	l.sp.mu.Lock()
	r.SpillErr = l.sp.err
	l.sp.mu.Unlock()
	return r
}

// Stats returns the counters since the log was created or last cleared.
func (l *Log) Stats() Stats {
	return Stats{
		Events:    l.nEvents.Load(),
		Requests:  l.nRequests.Load(),
		ToolCalls: l.nToolCalls.Load(),
		Errors:    l.nErrors.Load(),
		Dropped:   l.nDropped.Load(),
	}
}
