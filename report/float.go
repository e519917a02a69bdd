package report

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 that cannot put NaN or ±Inf into JSON: it marshals
// them as null, and unmarshals null as NaN. Every number in a Report that
// may not exist (an error with one iteration, a score of a run that did
// not measure anything) is a Float.
type Float float64

// NaN is the Float that does not exist.
func NaN() Float { return Float(math.NaN()) }

// Valid reports whether f is a finite number (neither NaN nor ±Inf).
func (f Float) Valid() bool {
	return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
}

// MarshalJSON writes f as a JSON number, or null when it is not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	if !f.Valid() {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// UnmarshalJSON reads a JSON number, or null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = NaN()
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("report: number or null expected, got %s", b)
	}
	*f = Float(v)
	return nil
}

// floats converts a slice of float64 to Floats.
func floats(xs []float64) []Float {
	out := make([]Float, len(xs))
	for i, x := range xs {
		out[i] = Float(x)
	}
	return out
}

// Bin is one histogram bucket: its representative value and how many
// values it holds. It is written as the pair [value, count], like JMH's
// rawDataHistogram, to keep large histograms small.
type Bin struct {
	Value Float
	Count uint64
}

// MarshalJSON writes b as [value, count].
func (b Bin) MarshalJSON() ([]byte, error) {
	v, err := b.Value.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := append([]byte{'['}, v...)
	out = append(out, ',')
	out = strconv.AppendUint(out, b.Count, 10)
	return append(out, ']'), nil
}

// UnmarshalJSON reads [value, count].
func (b *Bin) UnmarshalJSON(data []byte) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(data, &pair); err != nil || len(pair) != 2 {
		return fmt.Errorf("report: histogram bin must be [value, count], got %s", data)
	}
	if err := b.Value.UnmarshalJSON(pair[0]); err != nil {
		return err
	}
	if err := json.Unmarshal(pair[1], &b.Count); err != nil {
		return fmt.Errorf("report: histogram bin count: %w", err)
	}
	return nil
}
