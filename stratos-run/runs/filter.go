package runs

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Filter selects runs; zero fields select everything.
type Filter struct {
	Status   string
	Workflow string
	// Since keeps the runs that started at or after it.
	Since time.Time
	// Limit keeps the newest Limit runs that pass the rest (0: all).
	Limit int
}

func (f Filter) keep(r Run) bool {
	return (f.Status == "" || r.Status == f.Status) &&
		(f.Workflow == "" || r.Workflow == f.Workflow) &&
		(f.Since.IsZero() || !r.StartedAt.Before(f.Since))
}

// ParseSince reads a --since value relative to now: a duration back from
// now (90m, 2h, 7d — d is 24 hours), an RFC 3339 time, or a date (local
// midnight).
func ParseSince(value string, now time.Time) (time.Time, error) {
	if d, err := parseAge(value); err == nil {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, value); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, value, now.Location()); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (90m, 2h, 7d), an RFC 3339 time nor a date (2006-01-02)", value)
}

// parseAge reads a non-negative duration; it also takes whole days (7d).
func parseAge(value string) (time.Duration, error) {
	var d time.Duration
	var err error
	if days, ok := strings.CutSuffix(value, "d"); ok {
		var n int
		n, err = strconv.Atoi(days)
		d = time.Duration(n) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(value)
	}
	if err != nil {
		return 0, err
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", value)
	}
	return d, nil
}

// ParseAge reads an --older-than value: a duration (90m, 2h, 7d).
func ParseAge(value string) (time.Duration, error) {
	d, err := parseAge(value)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (90m, 2h, 7d)", value)
	}
	return d, nil
}
