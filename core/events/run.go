package events

import "time"

// Step is one event of a run, placed on the run's time line for the
// "This run" waterfall.
type Step struct {
	Event Event
	// Offset is the time since the run's first event.
	Offset time.Duration
	// Duration is how long the step took: a request's latency once it
	// has an outcome (for a request still waiting, the time until the
	// run's last event); 0 for instantaneous events.
	Duration time.Duration
}

// Waterfall returns every event of run in events, in order, with offsets
// from the run's first event. It works on any slice of events, such as
// one loaded with ReadTrace.
func Waterfall(events []Event, run string) []Step {
	if run == "" {
		return nil
	}
	var steps []Step
	var t0, tEnd time.Time
	for _, e := range events {
		if e.Run != run {
			continue
		}
		if len(steps) == 0 {
			t0 = e.Time
		}
		if e.Time.After(tEnd) {
			tEnd = e.Time
		}
		st := Step{Event: e, Offset: e.Time.Sub(t0)}
		if e.Outcome != nil && e.Outcome.State != Waiting {
			st.Duration = e.Outcome.Latency
		}
		steps = append(steps, st)
	}
	for i := range steps {
		e := &steps[i].Event
		if e.Outcome != nil && e.Outcome.State == Waiting {
			steps[i].Duration = tEnd.Sub(e.Time)
		}
	}
	return steps
}

// Run returns every event of run the log still holds, in order, with
// offsets from the run's first event (see Waterfall).
func (l *Log) Run(run string) []Step {
	if run == "" {
		return nil
	}
	var evs []Event
	for _, e := range l.Events() {
		if e.Run == run {
			evs = append(evs, e)
		}
	}
	return Waterfall(evs, run)
}
